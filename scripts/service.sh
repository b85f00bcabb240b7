#!/usr/bin/env bash
# Runs one hireloop service in the foreground, as `make up`, the tests and the container image start it:
#   scripts/service.sh <name>
# It runs the service's compiled bundle (services/<name>/dist/main.js), built first when the sources
# changed (scripts/build-services.mjs); HIRELOOP_TSX=1 runs the TypeScript sources through tsx instead.
set -euo pipefail
name="${1:?usage: scripts/service.sh <service name>}"
# V8's garbage collector works on the service's own thread only: on a host where eight processes share
# two cores, its background helper threads cost more than they save (an eighth of the services' CPU a
# creation, docs/decisions.md, 2026-11-28). With cores to spare: HIRELOOP_NODE_FLAGS=--no-single-threaded-gc.
flags=(--enable-source-maps --single-threaded-gc)
case "$name" in
  # The projector keeps up to 20,000 facts in flight (fetched, validated, waiting for the next transaction):
  # with a 32 MiB young generation most of them die young instead of being copied into the old one.
  event-store) flags+=(--max-semi-space-size=32) ;;
  # A burst of starts (10,000 creations paused at their first prompt) leaves little alive but grew V8's
  # old generation to twice what stays: a growing factor of 1.5 keeps the worker's heap near what it
  # holds (RSS 432 -> 237 MB after 10,000 paused; docs/decisions.md, 2026-11-24).
  graph-creator) flags+=(--heap-growing-percent=50) ;;
esac
# Extra node flags for every service, e.g. a profile of each under load:
#   HIRELOOP_NODE_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/prof' make up   (written when the service stops)
if [ -n "${HIRELOOP_NODE_FLAGS:-}" ]; then read -r -a extra <<<"$HIRELOOP_NODE_FLAGS"; flags+=("${extra[@]}"); fi
cd "$(dirname "$0")/.."
if [ -n "${HIRELOOP_TSX:-}" ]; then
  exec node "${flags[@]}" --import tsx "services/$name/src/main.ts"
fi
node scripts/build-services.mjs --if-stale >&2
exec node "${flags[@]}" "services/$name/dist/main.js"
