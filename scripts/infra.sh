#!/usr/bin/env bash
# The infrastructure every hireloop process needs: the Kafka broker, Postgres, the schema and the topics.
#   scripts/infra.sh up <owner>     start what is not running; remember what <owner> started
#   scripts/infra.sh down <owner>   stop exactly what <owner> started
# Tests use the same script as `make up` (owner "test" vs "up").
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

owner="${2:-up}"
marks="$run/started/$owner"

up() {
  mkdir -p "$marks"
  local out
  out="$("$root/infra/kafka/kafka.sh" start)" || exit 1
  say "$out" | grep -v '^started ' || true
  if grep -q '^started kafka' <<<"$out"; then touch "$marks/kafka"; fi
  out="$("$root/infra/postgres/postgres.sh" ensure)" || exit 1
  say "$out" | grep -v '^started ' || true
  if grep -q '^started postgres' <<<"$out"; then touch "$marks/postgres"; fi
}

migrate_and_topics() {
  (cd "$root" && pnpm -s hireloop migrate && pnpm -s hireloop topics) || die "migrating Postgres or creating topics failed (see above)."
}

down() {
  [ -f "$marks/kafka" ] && "$root/infra/kafka/kafka.sh" stop && rm -f "$marks/kafka"
  [ -f "$marks/postgres" ] && "$root/infra/postgres/postgres.sh" stop && rm -f "$marks/postgres"
  return 0
}

case "${1:-}" in
  up) up ;;
  schema) migrate_and_topics ;;
  down) down ;;
  *) echo "usage: $0 up|schema|down [owner]" >&2; exit 2 ;;
esac
