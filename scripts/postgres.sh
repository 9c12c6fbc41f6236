#!/usr/bin/env bash
# A throwaway PostgreSQL for the tests, on 127.0.0.1 only: `start` prints its URL, `stop` ends it.
set -euo pipefail

DATA=${PG_TEST_DIR:-/tmp/scorekeeper-pg}
PORT=${PG_TEST_PORT:-54329}
BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)

as_owner() {
  # PostgreSQL will not run as root; run it as the postgres user the package created.
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
  start)
    if [ ! -s "$DATA/PG_VERSION" ]; then
      rm -rf "$DATA"; mkdir -p "$DATA"
      [ "$(id -u)" -eq 0 ] && chown postgres: "$DATA"
      as_owner "$BIN/initdb" -D "$DATA" -U scorekeeper --auth=trust -E UTF8 >/dev/null
    fi
    if ! as_owner "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
      as_owner "$BIN/pg_ctl" -D "$DATA" -w -l "$DATA/log" \
        -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DATA -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null
    fi
    as_owner "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U scorekeeper -d postgres -tAc \
      "SELECT 1 FROM pg_database WHERE datname='scorekeeper_test'" | grep -q 1 ||
      as_owner "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U scorekeeper scorekeeper_test
    echo "postgresql://scorekeeper@127.0.0.1:$PORT/scorekeeper_test"
    ;;
  stop)
    as_owner "$BIN/pg_ctl" -D "$DATA" -m fast stop >/dev/null 2>&1 || true
    ;;
  *)
    echo "usage: $0 start|stop" >&2; exit 2;;
esac
