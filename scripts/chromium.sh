#!/usr/bin/env bash
# The browser of the page's end-to-end tests: Debian's chromium, installed when missing (playwright-core
# drives it; Playwright's own browser downloads are not used). Prints its path.
set -euo pipefail
bin="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$bin" ]; then
  printf 'installing chromium (apt-get) for the page tests ...\n' >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  command -v apt-get >/dev/null || { printf 'error: %s is missing and apt-get is not available: install Chromium and set CHROMIUM_PATH\n' "$bin" >&2; exit 1; }
  $sudo apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >&2 \
    || { printf 'error: could not install chromium with apt-get\n' >&2; exit 1; }
fi
printf '%s\n' "$bin"
