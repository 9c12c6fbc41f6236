"""The app as served, plus a /bare route that touches no database: what bench/load.py serves
(`gunicorn -c scripts/gunicorn.conf.py bench.load_app:app`; the app named on the command line
overrides the config's wsgi_app), so the bare route is timed by the same server in the same run."""

from scorekeeper import create_app

app = create_app()
app.add_url_rule("/bare", "bare", lambda: "ok")
