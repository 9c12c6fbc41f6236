"""How `make serve` runs gunicorn (`gunicorn -c scripts/gunicorn.conf.py`).

gevent workers: each connection is a greenlet, so a phone that sends half a request and stalls
holds a greenlet, not one of a few threads; a thousand of them cannot stop the next phone.
One worker by default (WORKERS for more): scores are read from the database, so any number of
workers agree; the rate limits agree only when counted in a shared store
(SCOREKEEPER_RATELIMIT_STORAGE=redis://...), and more than one worker without one is warned about.
Each worker readies itself before it takes a request (see scorekeeper/warm.py)."""

import logging
import os
import resource
import socket
import sys

wsgi_app = "scorekeeper:create_app()"
bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
worker_class = "gevent"
workers = int(os.environ.get("WORKERS", "1"))
# Each worker runs the re-rating job, started with its app (records/stories/rerating.py).
os.environ.setdefault("SCOREKEEPER_RERATE_RUNNER", "1")
# A watching phone keeps a connection open (live view) but no database connection: a club night of
# 50 tables with their watchers and visitors is a few hundred at once, and 4,000 leaves room.
worker_connections = 4000
timeout = 30
graceful_timeout = 10
keepalive = 5
control_socket_disable = True  # nothing here uses it, and two servers on one machine would share its path
# Who asked for what, the answer and the worker (<pid>) that gave it, one line each. The path only:
# a query string may hold a key.
accesslog = "-"
access_log_format = '%(h)s %(t)s "%(m)s %(U)s" %(s)s %(B)s %(M)sms "%(a)s" %(p)s'


def on_starting(server):
    """Each open connection is a file descriptor: allow as many as the system lets this user have
    (the soft limit is often 1,024, below worker_connections)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 65536 if hard == resource.RLIM_INFINITY else hard  # "unlimited" still stops at the kernel's nr_open
    if wanted > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


# What the kernel may buffer for one connection's answer (it doubles this). A phone that stops reading
# an export holds that buffer, and the worker spent the time making what fills it: Linux lets it grow
# to 4 MB (net.ipv4.tcp_wmem), 2.8 MB of CSV measured for each stalled export, so a hundred of them
# took half a minute of the worker's time. 64 KB (the kernel keeps twice that) still fills the table's
# Wi-Fi, and a page is under 30 KB.
SEND_BUFFER = 64 * 1024


def when_ready(server):
    """Each connection the listening sockets accept inherits their send buffer."""
    for listener in server.LISTENERS:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)


def post_worker_init(worker):
    """Open the database connection and run the common statements and pages once, before the first phone."""
    from scorekeeper.web.warm import warm_up

    if worker.age == 1:  # the first worker started: once per start, not once per worker
        warn_if_limits_are_per_worker(worker.cfg.workers, worker.wsgi.config.get("RATELIMIT_STORAGE_URI"))
    # Flask-Limiter's word that Redis went away (it counts in memory meanwhile), into this log.
    for handler in worker.log.error_log.handlers:
        logging.getLogger("flask-limiter").addHandler(handler)
    warm_up(worker.wsgi)


def warn_if_limits_are_per_worker(workers: int, storage: str | None) -> None:
    """`storage` as the app read it (environment or instance/config.py), as the limiter uses it."""
    if workers <= 1 or not (storage or "memory://").startswith("memory://"):
        return
    rule = "!" * 100
    sys.stderr.write(f"""
{rule}
!! WARNING: {workers} workers, and the rate limits are counted in each worker's own memory.
!! Each worker allows the full limit (new matches, writes), so a flood gets {workers} times through.
!! Count them in Redis, shared by every worker (and every host serving the same database):
!!     SCOREKEEPER_RATELIMIT_STORAGE=redis://127.0.0.1:6379/0 WORKERS={workers} make serve
!! Serving anyway.
{rule}

""")
    sys.stderr.flush()
