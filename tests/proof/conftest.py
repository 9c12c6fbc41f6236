"""The proofs (issue 13): each records its figures (the `figures` fixture, tests/conftest.py),
printed at the end of the run.

make proof                       # the proofs alone, on SQLite and PostgreSQL
.venv/bin/python -m pytest -m proof tests/proof    # SQLite only, unless TEST_POSTGRES_URL is set
"""
