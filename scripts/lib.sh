# Shared by the scripts behind `make`: paths, messages, and the checks a new user may trip on.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
run="$root/.run"
services=(event-store trigger-router supervisor graph-creator connect-hub gateway)
PNPM_VERSION=10.34.9

say() { printf '%s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

service_port() {
  local var; var="$(echo "$1" | tr 'a-z-' 'A-Z_')_PORT"
  local default
  case "$1" in
    gateway) default=8080 ;; trigger-router) default=8081 ;; supervisor) default=8082 ;;
    graph-creator) default=8083 ;; event-store) default=8084 ;; connect-hub) default=8085 ;;
  esac
  echo "${!var:-$default}"
}

# Node 20+, pnpm, and the workspace's packages.
install_deps() {
  command -v node >/dev/null || die "Node.js is not installed: install Node 20 (https://nodejs.org or your package manager) and run again."
  local major; major="$(node -p 'process.versions.node.split(".")[0]')"
  [ "$major" -ge 20 ] || die "Node $(node -v) is too old: hireloop needs Node 20 or newer."
  if ! command -v pnpm >/dev/null || [ "$(pnpm -v 2>/dev/null)" != "$PNPM_VERSION" ]; then
    say "installing pnpm $PNPM_VERSION with npm ..."
    npm install -g --silent "pnpm@$PNPM_VERSION" >/dev/null || die "could not install pnpm with npm (npm install -g pnpm@$PNPM_VERSION failed)."
    hash -r
  fi
  (cd "$root" && pnpm install --frozen-lockfile --reporter=silent) || die "pnpm install failed (see above)."
}

# Each service compiled to JavaScript (services/<name>/dist/main.js) when missing or stale.
build_services() {
  (cd "$root" && node scripts/build-services.mjs --if-stale) || die "compiling the services failed (see above)."
}

# The chat page the gateway serves at `/`: built into services/gateway/page/dist when missing or stale.
build_page() {
  (cd "$root" && node --import tsx services/gateway/page/build.ts --if-stale) || die "building the page failed (see above)."
}
