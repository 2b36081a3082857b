#!/usr/bin/env bash
# Prints the bin directory of a PostgreSQL server (initdb, postgres, pg_ctl, psql) on stdout. The
# shared-backend tests (test/reliability/shared-backend.test.ts, test/support/shared-backends.ts) keep a
# stack's state in it, as teams do with `pulumi login postgres://…`. It is Debian's `postgresql`, at the
# version the machine's Debian release carries (bookworm: PostgreSQL 15), installed with apt-get when
# missing and this runs as root, as .ci/run installs qemu-user. Exits non-zero, with the reason on
# stderr, when there is none and none can be installed.
set -euo pipefail

server_bin() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    if [ -x "$dir/initdb" ] && [ -x "$dir/postgres" ] && [ -x "$dir/pg_ctl" ] && [ -x "$dir/psql" ]; then
      echo "$dir"
      return 0
    fi
  done
  return 1
}

if bin="$(server_bin)"; then
  echo "$bin"
  exit 0
fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "postgres: installing Debian's postgresql with apt-get" >&2
  { apt-get install -y -q postgresql >/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q postgresql >/dev/null 2>&1; }; } ||
    { echo "postgres: error: apt-get install postgresql failed" >&2; exit 1; }
  if bin="$(server_bin)"; then
    echo "$bin"
    exit 0
  fi
fi
echo "postgres: error: no PostgreSQL server here (Debian: apt-get install postgresql, as root)" >&2
exit 1
