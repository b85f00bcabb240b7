#!/usr/bin/env bash
# `make bench`: install and compile what a fresh clone lacks, then measure (scripts/bench/main.ts brings
# Kafka and Postgres up if needed and starts every service of its own).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

install_deps
build_services
cd "$root"
exec node --import tsx scripts/bench/main.ts "$@"
