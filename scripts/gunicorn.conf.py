"""How `make serve` runs gunicorn (`gunicorn -c scripts/gunicorn.conf.py`).

gevent workers: each connection is a greenlet, so a phone that sends half a request and stalls
holds a greenlet, not one of a few threads; a thousand of them cannot stop the next phone.
One worker by default (WORKERS for more): scores are read from the database, so any number of
workers agree. Each worker readies itself before it takes a request (see scorekeeper/warm.py)."""

import os

wsgi_app = "scorekeeper:create_app()"
bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
worker_class = "gevent"
workers = int(os.environ.get("WORKERS", "1"))
worker_connections = 1000
timeout = 30
graceful_timeout = 10
keepalive = 5
control_socket_disable = True  # nothing here uses it, and two servers on one machine would share its path
# Who asked for what and the answer, one line each. The path only: a query string may hold a key.
accesslog = "-"
access_log_format = '%(h)s %(t)s "%(m)s %(U)s" %(s)s %(B)s %(M)sms "%(a)s"'


def post_worker_init(worker):
    """Open the database connection and run the common statements and pages once, before the first phone."""
    from scorekeeper.warm import warm_up

    warm_up(worker.wsgi)
