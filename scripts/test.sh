#!/usr/bin/env bash
# `make test`: install, type-check, lint, then every test tier. The tests bring up the same
# infrastructure as `make up` (scripts/infra.sh, owner "test") and stop what they started.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

install_deps
build_page
build_services
"$root/scripts/chromium.sh" >/dev/null
cd "$root"
pnpm -s typecheck
pnpm -s lint
pnpm exec vitest run "$@"
