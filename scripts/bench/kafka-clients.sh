#!/usr/bin/env bash
# The Kafka client's own cost, kafkajs against librdkafka, side by side (scripts/bench/kafka-clients.ts):
#   scripts/bench/kafka-clients.sh [--rate 200] [--seconds 90] [--warm 40]
# node-rdkafka is installed under .run/kafka-clients, outside the project's dependencies: it builds
# librdkafka from its npm tarball (gcc, make and python3; about a minute and a half on two cores), which
# no service needs yet. Kafka is started if it is not running, and stopped again after.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

install_deps
"$root/scripts/infra.sh" up kafka-clients
trap '"$root/scripts/infra.sh" down kafka-clients' EXIT
dir="$run/kafka-clients"
if [ ! -f "$dir/node_modules/node-rdkafka/build/Release/node-librdkafka.node" ]; then
  say "installing node-rdkafka 3.6.1 under .run/kafka-clients (builds librdkafka from source)"
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{ "private": true }' >"$dir/package.json"
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=error node-rdkafka@3.6.1 >"$dir/install.log" 2>&1) \
    || die "installing node-rdkafka failed: see $dir/install.log"
fi
cd "$root"
RDKAFKA_DIR="$dir/" node --import tsx scripts/bench/kafka-clients.ts "$@"
