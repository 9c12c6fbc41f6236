#!/usr/bin/env bash
# The whole suite: engine, web and API on SQLite and on PostgreSQL, and the browser journeys.
set -euo pipefail
cd "$(dirname "$0")/.."

url=$(scripts/postgres.sh start)
trap 'scripts/postgres.sh stop' EXIT
export TEST_POSTGRES_URL="$url"
.venv/bin/python -m pytest "$@"
