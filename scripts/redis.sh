#!/usr/bin/env bash
# A throwaway Redis for the tests and the load test (the rate limits that several gunicorn workers
# share), on 127.0.0.1 only and keeping nothing on disk: `start` prints its URL and may be called
# again while it runs; `stop` ends it. REDIS_TEST_PORT and REDIS_TEST_DIR choose another one.
set -euo pipefail

DIR=${REDIS_TEST_DIR:-/tmp/scorekeeper-redis}
PORT=${REDIS_TEST_PORT:-63790}
PIDFILE="$DIR/redis.pid"

answers() { redis-cli -h 127.0.0.1 -p "$PORT" ping 2>/dev/null | grep -q PONG; }
our_pid() {
  # The pid in our pidfile, if that process is still a redis-server (not a reused pid).
  local pid
  pid=$(cat "$PIDFILE" 2>/dev/null) || return 1
  ps -p "$pid" -o comm= 2>/dev/null | grep -q redis && echo "$pid"
}

case "${1:-}" in
  start)
    if ! answers; then
      mkdir -p "$DIR"
      # No RDB snapshots, no append-only file: the counts of a test run are worth nothing after it.
      redis-server --bind 127.0.0.1 --port "$PORT" --daemonize yes --dir "$DIR" \
        --pidfile "$PIDFILE" --logfile "$DIR/log" --save "" --appendonly no
      for _ in $(seq 100); do answers && break; sleep 0.05; done
      answers || { echo "redis-server did not answer on 127.0.0.1:$PORT; $DIR/log says:" >&2; tail -5 "$DIR/log" >&2; exit 1; }
    fi
    echo "redis://127.0.0.1:$PORT/0"
    ;;
  stop)
    if pid=$(our_pid); then
      kill "$pid"
      for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    fi
    ;;
  *)
    echo "usage: $0 start|stop" >&2; exit 2;;
esac
