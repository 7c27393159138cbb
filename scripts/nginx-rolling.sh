#!/usr/bin/env bash
# The scale-out recipe, tested: Debian's nginx on loopback in front of two `varcat serve`
# processes mapping the same catalog file; while varcat-soak holds many keep-alive connections
# through nginx, each varcat is restarted in turn (SIGTERM: it drains and exits 0, then starts
# again) and both reload the catalog (atomic replacement + SIGHUP). Fails (exit 1) on any
# failed request or unclean exit.
#
#   scripts/nginx-rolling.sh            # SECS=24 CONNS=100 PROFILE=release by default
#   PROFILE=debug SECS=12 CONNS=50 scripts/nginx-rolling.sh
#
# Needs nginx (apt-get install -y nginx). Ports: PORT (nginx, 28080), PORT+1 and PORT+2.
# The nginx configuration used is printed at the end; README.md ("Scale-out") explains it.
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${SECS:-24}
CONNS=${CONNS:-100}
PROFILE=${PROFILE:-release}
PORT=${PORT:-28080}
PA=$((PORT + 1))
PB=$((PORT + 2))
command -v nginx >/dev/null || { echo "nginx is not installed (apt-get install -y nginx)"; exit 2; }
if [ "$PROFILE" = release ]; then cargo build -q --release --bins; else cargo build -q --bins; fi
BIN=target/$PROFILE

work=$(mktemp -d /tmp/varcat-nginx.XXXXXX)
chmod 755 "$work"
A= B=
cleanup() {
    [ -n "$A" ] && kill "$A" 2>/dev/null || true
    [ -n "$B" ] && kill "$B" 2>/dev/null || true
    [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
    sleep 0.2
    rm -rf "$work"
}
trap cleanup EXIT

"$BIN/varcat" build testdata/catalog -o "$work/catalog.varcat" --quiet 2>/dev/null

start_varcat() { # port → pid in $NEW (a child of this shell, so `wait` gets its status)
    "$BIN/varcat" serve "$work/catalog.varcat" --addr "127.0.0.1:$1" --quiet \
        >/dev/null 2>>"$work/varcat-$1.log" &
    NEW=$!
}
wait_up() { # port
    for _ in $(seq 200); do
        curl -sf -o /dev/null "http://127.0.0.1:$1/api/health" && return 0
        sleep 0.05
    done
    echo "nothing answers on port $1"; cat "$work"/varcat-*.log; exit 1
}
restart() { # name port pid → new pid in $NEW
    local t0=$SECONDS
    kill -TERM "$3"
    if wait "$3"; then :; else echo "varcat $1 exited with status $?"; exit 1; fi
    start_varcat "$2"
    wait_up "$2"
    echo "restarted varcat $1 (port $2) in $((SECONDS - t0)) s"
}

mkdir -p "$work/tmp" && chmod 777 "$work/tmp"
cat > "$work/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $work/tmp/body;
    proxy_temp_path $work/tmp/proxy;
    fastcgi_temp_path $work/tmp/fastcgi;
    uwsgi_temp_path $work/tmp/uwsgi;
    scgi_temp_path $work/tmp/scgi;

    upstream varcat {
        server 127.0.0.1:$PA max_fails=1 fail_timeout=2s;
        server 127.0.0.1:$PB max_fails=1 fail_timeout=2s;
        keepalive 64;
        # Below varcat's idle timeout (60 s), so nginx never reuses a connection varcat closes.
        keepalive_timeout 50s;
    }
    server {
        listen 127.0.0.1:$PORT;
        # What tiny_http cannot enforce (README table): sizes and timeouts before varcat.
        client_header_timeout 10s;
        client_body_timeout 10s;
        keepalive_timeout 60s;
        send_timeout 30s;
        client_header_buffer_size 1k;
        large_client_header_buffers 4 16k;
        client_max_body_size 16k;
        location / {
            proxy_pass http://varcat;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$host;
            # A varcat that is restarting refuses or closes: GETs go to the other one.
            proxy_next_upstream error timeout http_503;
            proxy_next_upstream_tries 2;
            proxy_connect_timeout 1s;
            proxy_read_timeout 30s;
            proxy_buffering on;
        }
    }
}
CONF

start_varcat "$PA"; A=$NEW
start_varcat "$PB"; B=$NEW
wait_up "$PA"
wait_up "$PB"
nginx -e "$work/nginx-error.log" -p "$work" -c "$work/nginx.conf"
wait_up "$PORT"
echo "nginx on 127.0.0.1:$PORT → varcat on $PA and $PB; soak: $CONNS connections for $SECS s"

"$BIN/varcat-soak" --addr "127.0.0.1:$PORT" --conns "$CONNS" --secs "$SECS" --pid "$A,$B" >"$work/soak.txt" &
SOAK=$!
step=$((SECS / 6))
sleep "$step"
restart A "$PA" "$A"; A=$NEW
sleep "$step"
restart B "$PB" "$B"; B=$NEW
sleep "$step"
cp "$work/catalog.varcat" "$work/catalog.varcat.new"
mv "$work/catalog.varcat.new" "$work/catalog.varcat"
kill -HUP "$A" "$B"
echo "replaced the catalog file and sent SIGHUP to both"
sleep "$step"
restart A "$PA" "$A"; A=$NEW
rc=0
wait "$SOAK" || rc=$?
cat "$work/soak.txt"
grep -h "reload" "$work"/varcat-*.log | sed 's/^/  log: /' || true
if [ -s "$work/nginx-error.log" ]; then
    echo "nginx error log (upstream errors nginx retried on the other varcat):"
    grep -c "" "$work/nginx-error.log" | sed 's/^/  lines: /'
    head -n 3 "$work/nginx-error.log" | sed 's/^/  /'
fi
if [ "$rc" = 0 ]; then echo "PASS: zero failed requests"; else echo "FAIL"; fi
exit "$rc"
