#!/usr/bin/env bash
# Run a command with a throwaway PostgreSQL cluster: initdb in a temp dir, start it on a
# unix socket and a free local port, export PITCH_TEST_PG_URL, run "$@", stop and delete.
#   scripts/with-postgres.sh .venv/bin/pytest tests/server
# Needs the Debian package `postgresql` (requirements/apt.txt). Run as root: the cluster
# runs as the `postgres` user (PostgreSQL refuses to run as root).
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "with-postgres: PostgreSQL is not installed (apt-get install postgresql)" >&2
  exit 2
fi
dir=$(mktemp -d /tmp/pitch-pg.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_pg=()
if [ "$(id -u)" = 0 ]; then
  chown postgres "$dir"
  as_pg=(runuser -u postgres --)
fi
cleanup() {
  "${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
"${as_pg[@]}" "$bin/initdb" -D "$dir/data" -U postgres -A trust --no-sync >/dev/null
"${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o \
  "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
export PITCH_TEST_PG_URL="postgresql+psycopg://postgres@127.0.0.1:$port/postgres"
echo "with-postgres: PostgreSQL on port $port"
"$@"
