#!/bin/bash
# The entrypoint of local/lab-postgres (containers/postgres/Dockerfile): one PostgreSQL 15 server for the ledger of
# `lab replicas`. The contract, in short (docs/containers.md has it in full):
#   - the password of the role crlab is the file /run/crlab/ledger-password (a read-only bind mount): at least 32
#     bytes, trailing CR/LF ignored, no other line break or NUL; otherwise this script refuses to start (exit 2);
#   - the first start runs initdb as the postgres account into /var/lib/postgresql/crlab (superuser crlab, database
#     crlab, the settings and pg_hba.conf below); a later start of the same container finds it and starts the server;
#   - the server runs in the foreground as the postgres account (this script execs it), logging to stderr, and one
#     line "crlab-postgres: ready on port 5432" goes to stderr once pg_isready answers on 127.0.0.1.
# The password never reaches a command line, an environment variable, the log or another file: initdb reads it from
# a pipe, and the data folder holds PostgreSQL's SCRAM verifier only.
set -euo pipefail

readonly PASSWORD_FILE=/run/crlab/ledger-password
readonly DATA=/var/lib/postgresql/crlab
# Written last on the first start: a folder with PG_VERSION but without it is an initialisation cut short.
readonly MARKER="$DATA/crlab-initialised"
readonly PORT=5432
readonly MIN_PASSWORD_BYTES=32

say() { printf 'crlab-postgres: %s\n' "$*" >&2; }
refuse() { say "refusing to start: $*"; exit 2; }
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"; }

[[ "$(id -u)" == 0 ]] || refuse "the entrypoint must start as root (it reads the password file, then runs PostgreSQL as the postgres account); do not pass --user"

# The same rule as the ledger's own reader (WIRE_LEDGER_PASSWORD_FILE): the file's bytes without trailing CR/LF,
# at least 32 of them. initdb takes the first line only, so a second line would silently shorten the password: refused.
check_password_file() {
  local LC_ALL=C content length
  [[ -e "$PASSWORD_FILE" ]] || refuse "no ledger password file $PASSWORD_FILE (bind-mount a folder holding ledger-password at /run/crlab, read-only)"
  [[ -f "$PASSWORD_FILE" && -r "$PASSWORD_FILE" ]] || refuse "the ledger password file $PASSWORD_FILE is not a readable file"
  length="$(wc -c <"$PASSWORD_FILE")"
  [[ "$(tr -d '\000' <"$PASSWORD_FILE" | wc -c)" == "$length" ]] || refuse "the ledger password file $PASSWORD_FILE contains a NUL byte"
  IFS= read -r -d '' content <"$PASSWORD_FILE" || true
  while [[ "$content" == *[$'\r\n'] ]]; do content="${content%?}"; done
  [[ "$content" != *[$'\r\n']* ]] || refuse "the ledger password file $PASSWORD_FILE holds more than one line"
  (( ${#content} >= MIN_PASSWORD_BYTES )) || refuse "the ledger password in $PASSWORD_FILE is shorter than $MIN_PASSWORD_BYTES bytes"
}

initialise() {
  say "first start: initdb into $DATA"
  install -d -o postgres -g postgres -m 0700 "$DATA"
  # initdb reads the password from a pipe made by the postgres account's own shell (a pipe made by root could not be
  # opened again through /dev/fd by the postgres account); cat reads the file through descriptor 3, opened here as
  # root, and initdb itself gets descriptor 3 closed.
  # shellcheck disable=SC2016
  as_postgres bash -c 'exec initdb --pgdata="$1" --username=crlab --pwfile=<(cat <&3) --auth-local=peer \
      --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 --no-instructions 3<&-' initdb "$DATA" 3<"$PASSWORD_FILE" >&2
  # Later settings win over earlier ones in postgresql.conf, so appending overrides initdb's defaults.
  as_postgres tee -a "$DATA/postgresql.conf" >/dev/null <<EOF

# crlab (containers/postgres/crlab-postgres-entrypoint.sh): the ledger of lab replicas
listen_addresses = '*'
port = $PORT
max_connections = 100
fsync = on
synchronous_commit = on
full_page_writes = on
password_encryption = scram-sha-256
# a backend whose replica vanished mid-transaction rolls back soon: idle in a transaction for 10 s, or its peer
# silent for 5 s + 3 probes 2 s apart
idle_in_transaction_session_timeout = 10s
tcp_keepalives_idle = 5
tcp_keepalives_interval = 2
tcp_keepalives_count = 3
EOF
  # The postgres account over the Unix socket, as the role crlab (peer, through the map below); crlab with its
  # password from loopback and from the replicas' network; nothing else.
  as_postgres tee "$DATA/pg_hba.conf" >/dev/null <<'EOF'
# crlab (containers/postgres/crlab-postgres-entrypoint.sh): nothing else may connect
# TYPE  DATABASE  USER   ADDRESS         METHOD
local   all       crlab                  peer map=crlab
host    all       crlab  127.0.0.1/32    scram-sha-256
host    all       crlab  10.231.0.0/16   scram-sha-256
EOF
  as_postgres tee "$DATA/pg_ident.conf" >/dev/null <<'EOF'
# crlab: the postgres account may log in over the Unix socket as the role crlab, and no other account may
# MAPNAME  SYSTEM-USERNAME  PG-USERNAME
crlab      postgres         crlab
EOF
  # The database, made by a single-user backend (no server listening yet, so nothing can connect in between).
  echo 'CREATE DATABASE crlab OWNER crlab;' | as_postgres postgres --single -D "$DATA" -c exit_on_error=true postgres >/dev/null
  as_postgres touch "$MARKER"
  sync
  say "initialised $DATA (role crlab, database crlab)"
}

check_password_file
install -d -o postgres -g postgres -m 2775 /run/postgresql
if [[ -f "$MARKER" ]]; then
  say "data folder $DATA initialised before; starting the server"
elif [[ -e "$DATA/PG_VERSION" ]]; then
  refuse "$DATA holds a cluster whose initialisation was cut short or not made by this image (no $(basename "$MARKER")); start a new container"
elif [[ -d "$DATA" && -n "$(ls -A "$DATA")" ]]; then
  refuse "$DATA is not empty and holds no cluster"
else
  initialise
fi

# One ready line once the server answers on loopback. Connecting as crlab to crlab and hanging up at the password
# request is what pg_isready does; the server logs nothing for it. The waiter ends with status 0 whatever happens.
server=$$
(
  while kill -0 "$server" 2>/dev/null; do
    if pg_isready --quiet --host=127.0.0.1 --port="$PORT" --username=crlab --dbname=crlab --timeout=2; then
      say "ready on port $PORT"
      break
    fi
    sleep 0.1
  done
  exit 0
) &

exec setpriv --reuid=postgres --regid=postgres --init-groups -- postgres -D "$DATA"
