#!/usr/bin/env bash
# bench/postgres/setup.sh SYNTH_DIR: a private PostgreSQL cluster loaded with a `varcat synth`
# directory, for the side-by-side benchmark (bench/postgres/README.md). Not part of the tests.
#
#   target/release/varcat synth --variants 100000 --seed 1 -o /tmp/s100k
#   bench/postgres/setup.sh /tmp/s100k
#
# The cluster lives in $PGBENCH_DIR (default /tmp/varcat-pg): data in $PGBENCH_DIR/data, the
# unix socket in $PGBENCH_DIR, port $PGBENCH_PORT (default 5499), TCP on 127.0.0.1 only. It is
# run by the `postgres` OS user (the server refuses root). Every setting is explained below.
# `setup.sh --stop` stops it; running setup.sh again drops and reloads the database.
set -euo pipefail
DIR=${PGBENCH_DIR:-/tmp/varcat-pg}
PORT=${PGBENCH_PORT:-5499}
HERE=$(cd "$(dirname "$0")" && pwd)

if ! command -v pg_ctl >/dev/null && ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
  apt-get update && apt-get install -y postgresql libpq-dev
fi
[ -f /usr/include/postgresql/libpq-fe.h ] || apt-get install -y libpq-dev
BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
as_pg() { runuser -u postgres -- "$@"; }

if [ "${1:-}" = "--stop" ]; then
  as_pg "$BIN/pg_ctl" -D "$DIR/data" -m fast stop || true
  exit 0
fi
SYNTH=${1:?usage: setup.sh SYNTH_DIR | --stop}
SYNTH=$(cd "$SYNTH" && pwd)

mkdir -p "$DIR"
chown postgres "$DIR"
if [ ! -f "$DIR/data/PG_VERSION" ]; then
  as_pg "$BIN/initdb" -D "$DIR/data" -E UTF8 --locale=C.UTF-8 -A trust >/dev/null
fi
# The settings (appended last, so they win over the defaults above them):
cat > "$DIR/data/postgresql.auto.conf" <<EOF
# --- where it listens: the unix socket and loopback only
listen_addresses = '127.0.0.1'
port = $PORT
unix_socket_directories = '$DIR'
max_connections = 40              # 8 benchmark connections, a few for psql
# --- memory, for a 24 GiB machine whose data set (100k variants: 1.8 GB with indexes) fits
shared_buffers = 4GB              # every table and index stays in PostgreSQL's own cache
effective_cache_size = 16GB       # the planner may count on the OS page cache too
huge_pages = try
work_mem = 64MB                   # sorts and hashes of one query never spill
maintenance_work_mem = 2GB        # index builds in memory
# --- durability: a read-only benchmark, loaded once (these only speed up the load)
fsync = off
synchronous_commit = off
full_page_writes = off
wal_level = minimal
max_wal_senders = 0
max_wal_size = 8GB                # no checkpoints during the load
# --- planning and execution for short OLTP-style queries on 2 cores
random_page_cost = 1.1            # everything is in memory
jit = off                         # JIT compilation only costs time on millisecond queries
max_parallel_workers_per_gather = 0  # 8 clients on 2 cores: parallel workers only add hand-offs
# --- quiet
autovacuum = off                  # the load ends with VACUUM (FREEZE, ANALYZE); nothing writes after
logging_collector = off
log_min_messages = warning
track_counts = on
EOF
if ! as_pg "$BIN/pg_ctl" -D "$DIR/data" status >/dev/null 2>&1; then
  as_pg "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w start >/dev/null
else
  as_pg "$BIN/pg_ctl" -D "$DIR/data" -w restart -l "$DIR/server.log" >/dev/null
fi
PSQL=(psql -X -q -v ON_ERROR_STOP=1 -h "$DIR" -p "$PORT" -U postgres)
"${PSQL[@]}" -d postgres -c "DROP DATABASE IF EXISTS varcat" -c "CREATE DATABASE varcat"

# Raw documents: one text line per document, per collection (parts concatenated). COPY's CSV
# mode with a quote and delimiter that never occur reads each line verbatim.
t0=$(date +%s)
"${PSQL[@]}" -d varcat -c "CREATE SCHEMA raw; CREATE SCHEMA pj; CREATE SCHEMA pjb;"
colls=$(ls "$SYNTH" | grep -E '\.jsonl$' | sed -E 's/(\.p[0-9]+)?\.jsonl$//' | sort -u)
for c in $colls; do
  "${PSQL[@]}" -d varcat -c "CREATE UNLOGGED TABLE raw.\"$c\" (line text)"
  cat $(ls "$SYNTH" | grep -E "^$c(\.p[0-9]+)?\.jsonl\$" | sed "s|^|$SYNTH/|") \
    | "${PSQL[@]}" -d varcat -c "COPY raw.\"$c\" FROM STDIN WITH (FORMAT csv, QUOTE E'\x01', DELIMITER E'\x02')"
done
echo "raw load: $(( $(date +%s) - t0 )) s"
"${PSQL[@]}" -d varcat -f "$HERE/schema.sql"
echo "setup done in $(( $(date +%s) - t0 )) s"
"${PSQL[@]}" -d varcat -c "SELECT n.nspname AS schema, pg_size_pretty(sum(pg_total_relation_size(c.oid))) AS size
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname IN ('pj','pjb') AND c.relkind = 'r' GROUP BY 1 ORDER BY 1"
