#!/usr/bin/env bash
# `make run` (Flask's server, reloads on changes) and `make serve` (gunicorn with gevent workers):
# both apply the migrations first and listen on HOST:PORT. With HOST=0.0.0.0 the phones on the same
# network can connect; this machine's addresses are then added to the trusted host names.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:?usage: scripts/serve.sh run|serve}
export HOST=${HOST:-127.0.0.1}
export PORT=${PORT:-$([ "$mode" = run ] && echo 5000 || echo 8000)}

if [ "$HOST" = 0.0.0.0 ] && [ -z "${SCOREKEEPER_HOSTS:-}" ]; then
  addresses=$(hostname -I 2>/dev/null | tr ' ' '\n' | grep -v ':' | grep . || true)
  export SCOREKEEPER_HOSTS=$(echo $addresses "$(hostname).local" | tr ' ' ',')
  for address in $addresses; do echo "Phones on this network: http://$address:$PORT/"; done
fi

.venv/bin/flask --app scorekeeper db upgrade
export SCOREKEEPER_RERATE_RUNNER=1  # a serving process re-rates in the background; the upgrade above does not
if [ "$mode" = run ]; then
  exec .venv/bin/flask --app scorekeeper run --host "$HOST" --port "$PORT"
fi
exec .venv/bin/gunicorn -c scripts/gunicorn.conf.py
