#!/usr/bin/env bash
# Postgres for hireloop. `ensure` uses the server DATABASE_URL points at (default 127.0.0.1:5432);
# only when none answers there does it start a private cluster under .run/postgres (and says so).
#   infra/postgres/postgres.sh ensure|stop|status
# Env: DATABASE_URL (its host and port), PG_DATA_DIR (.run/postgres under the repo): `make chaos` starts,
# stops and starts again a cluster of its own this way, on another port and data directory.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
url="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/hireloop}"
data="${PG_DATA_DIR:-$root/.run/postgres}"
pidfile="$data/postmaster.pid"

die() { printf 'postgres: %s\n' "$*" >&2; exit 1; }

hostport="$(node -e 'const u=new URL(process.argv[1]);console.log((u.hostname||"127.0.0.1")+" "+(u.port||5432))' "$url")"
host="${hostport% *}"; port="${hostport#* }"

reachable() { (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null; }

private_running() { [ -f "$pidfile" ] && kill -0 "$(head -1 "$pidfile")" 2>/dev/null; }

bin_dir() {
  local d; d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
  [ -n "$d" ] && [ -x "$d/initdb" ] && echo "$d"
}

ensure() {
  if reachable; then echo "postgres: using the server on $host:$port"; return; fi
  case "$host" in 127.0.0.1|localhost|::1) ;; *) die "no Postgres answers on $host:$port (DATABASE_URL). Start it, or point DATABASE_URL at a server that runs." ;; esac
  local bin; bin="$(bin_dir)" || die "no Postgres answers on $host:$port and no server binaries are installed. Install them (Debian: apt-get install -y postgresql) or set DATABASE_URL to a running server."
  echo "postgres: no server on $host:$port; starting a private one in $data"
  mkdir -p "$data"
  local as=(); [ "$(id -u)" = 0 ] && { chown -R postgres "$data"; as=(runuser -u postgres --); }
  [ -f "$data/PG_VERSION" ] || "${as[@]}" "$bin/initdb" -D "$data" -U postgres --auth=trust >/dev/null
  "${as[@]}" "$bin/pg_ctl" -D "$data" -o "-p $port -k /tmp -c listen_addresses=127.0.0.1" -l "$data/server.log" -w start >/dev/null \
    || die "the private server did not start; see $data/server.log"
  echo "started postgres"
}

stop() {
  private_running || { echo "postgres: no private server running"; return; }
  local bin; bin="$(bin_dir)"
  local as=(); [ "$(id -u)" = 0 ] && as=(runuser -u postgres --)
  "${as[@]}" "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null
  echo "postgres: private server stopped"
}

case "${1:-}" in
  ensure) ensure ;;
  stop) stop ;;
  status) if reachable; then echo "reachable on $host:$port"; else echo "unreachable on $host:$port"; exit 1; fi ;;
  *) echo "usage: $0 ensure|stop|status" >&2; exit 2 ;;
esac
