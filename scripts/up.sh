#!/usr/bin/env bash
# `make up`: from a fresh clone, install, start Kafka (and Postgres only if none answers), migrate,
# create topics, start every service as its own process. Safe to run twice.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# A host with a Docker engine runs the same stack from docker-compose.yml (HIRELOOP_NO_DOCKER=1 forces the local way).
if [ -z "${HIRELOOP_NO_DOCKER:-}" ] && command -v docker >/dev/null && docker info >/dev/null 2>&1; then
  say "a Docker engine answers: starting docker-compose.yml"
  (cd "$root" && docker compose up -d --build --wait) || die "docker compose up failed (see above)."
  touch "$run/docker-up" 2>/dev/null || { mkdir -p "$run" && touch "$run/docker-up"; }
  say "hireloop is up: the gateway listens on http://127.0.0.1:8080  (stop with: make down)"
  exit 0
fi

install_deps
build_page
build_services
"$root/scripts/infra.sh" up up
"$root/scripts/infra.sh" schema
mkdir -p "$run/pids" "$run/logs"

for s in "${services[@]}"; do
  pidfile="$run/pids/$s.pid"
  if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
    say "$s: already running (pid $(cat "$pidfile"))"; continue
  fi
  port="$(service_port "$s")"
  port_open "$port" && die "port $port for $s is busy: stop what holds it (ss -ltnp 'sport = :$port') or set $(echo "$s" | tr 'a-z-' 'A-Z_')_PORT."
  (cd "$root" || exit 1; setsid nohup scripts/service.sh "$s" >>"$run/logs/$s.log" 2>&1 </dev/null & echo $! >"$pidfile")
done

for s in "${services[@]}"; do
  port="$(service_port "$s")"
  for _ in $(seq 1 120); do
    curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
    kill -0 "$(cat "$run/pids/$s.pid")" 2>/dev/null || die "$s exited during start-up; see .run/logs/$s.log"
    sleep 0.5
  done
  curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 || die "$s is not ready after 60s; see .run/logs/$s.log"
  say "$s: ready on http://127.0.0.1:$port (pid $(cat "$run/pids/$s.pid"))"
done
say ""
say "hireloop is up: the gateway listens on http://127.0.0.1:$(service_port gateway)  (logs in .run/logs, stop with: make down)"
