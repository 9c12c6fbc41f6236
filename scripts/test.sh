#!/usr/bin/env bash
# The whole suite: engine, web and API on SQLite and on PostgreSQL, the browser journeys, and the
# rate limits shared through Redis by a real gunicorn's workers.
set -euo pipefail
cd "$(dirname "$0")/.."

.venv/bin/ruff check .  # the lint first: a minute's suite is not spent on code ruff refuses
.venv/bin/ruff format --check .  # laid out as `make format` lays it out

url=$(scripts/postgres.sh start)
trap 'scripts/postgres.sh stop' EXIT
export TEST_POSTGRES_URL="$url"
redis=$(scripts/redis.sh start)
trap 'scripts/redis.sh stop; scripts/postgres.sh stop' EXIT
export TEST_REDIS_URL="$redis"
.venv/bin/python -m pytest -n "${TEST_WORKERS:-2}" --dist worksteal "$@"
