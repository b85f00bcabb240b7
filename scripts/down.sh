#!/usr/bin/env bash
# `make down`: stop exactly what `make up` started: the services it launched, then the broker and a
# private Postgres if it started them.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if [ -f "$run/docker-up" ]; then
  (cd "$root" && docker compose down) && rm -f "$run/docker-up"
  exit 0
fi

for s in "${services[@]}"; do
  pidfile="$run/pids/$s.pid"
  [ -f "$pidfile" ] || continue
  pid="$(cat "$pidfile")"
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -0 "$pid" 2>/dev/null && { say "$s: did not stop within 20s, killing"; kill -KILL "$pid"; }
    say "$s: stopped (pid $pid)"
  fi
  rm -f "$pidfile"
done
"$root/scripts/infra.sh" down up
