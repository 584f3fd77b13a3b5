#!/usr/bin/env bash
# A throw-away nginx on 127.0.0.1 for the HTTP client's tests (Tests/MapSnapTests/HTTP*).
#
#   scripts/nginx-test-server.sh start ROOT WORK [LOCATIONS]
#       serves the folder ROOT on a free port of 127.0.0.1, its config, logs
#       (WORK/access.log: one line per request, "$request $status") and pid
#       file in the folder WORK; LOCATIONS, a file of nginx `location`
#       blocks, is included in the server block. Prints the port (also in
#       WORK/port). The server ends by itself after NGINX_TEST_LIFETIME
#       seconds (default 600) should nobody stop it.
#   scripts/nginx-test-server.sh stop WORK
#       stops it (and its watchdog) and waits until it is gone.
#
# Needs Debian's nginx (`make setup` installs it). Runs as root (CI) or as
# any user: nothing outside WORK is written. As root the workers run as root
# too, since WORK and ROOT may be private (mkdtemp) folders.
set -euo pipefail

NGINX=${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}
fail() { echo "nginx-test-server: $*" >&2; exit 1; }

start() {
  local root=$1 work=$2 locations=${3:-}
  [ -x "$NGINX" ] || fail "no nginx at $NGINX (install Debian's nginx; make setup does)"
  [ -d "$root" ] || fail "no folder $root"
  mkdir -p "$work/temp"
  local user_line=""
  [ "$(id -u)" = 0 ] && user_line="user root root;"
  local include_line=""
  [ -n "$locations" ] && include_line="include $(realpath "$locations");"
  # A random port in the dynamic range; another one when it is taken.
  local attempt port
  for attempt in $(seq 1 20); do
    port=$(( 20000 + (RANDOM * 32768 + RANDOM) % 40000 ))
    cat >"$work/nginx.conf" <<CONF
$user_line
daemon on;
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log warn;
events { worker_connections 64; }
http {
  log_format mapsnap '\$request \$status \$body_bytes_sent';
  access_log $work/access.log mapsnap;
  client_body_temp_path $work/temp/body;
  proxy_temp_path $work/temp/proxy;
  fastcgi_temp_path $work/temp/fastcgi;
  uwsgi_temp_path $work/temp/uwsgi;
  scgi_temp_path $work/temp/scgi;
  types {
    application/json json;
    text/plain txt;
    image/png png;
    application/x-protobuf pbf mvt;
    application/vnd.pmtiles pmtiles;
  }
  default_type application/octet-stream;
  server {
    listen 127.0.0.1:$port;
    root $(realpath "$root");
    $include_line
  }
}
CONF
    if "$NGINX" -p "$work" -e "$work/error.log" -c "$work/nginx.conf" 2>"$work/start.log"; then
      echo "$port" >"$work/port"
      # The watchdog: ends the server should the tests never stop it (and
      # only that server: the pid file must still name it). `stop` ends it.
      local pid
      pid=$(cat "$work/nginx.pid")
      (
        trap 'kill "$sleeper" 2>/dev/null; exit 0' TERM
        sleep "${NGINX_TEST_LIFETIME:-600}" &
        sleeper=$!
        wait "$sleeper"
        [ "$(cat "$work/nginx.pid" 2>/dev/null)" = "$pid" ] && kill -TERM "$pid" 2>/dev/null
      ) >/dev/null 2>&1 </dev/null &
      echo $! >"$work/watchdog.pid"
      disown || true
      echo "$port"
      return 0
    fi
    grep -q "Address already in use" "$work/start.log" "$work/error.log" 2>/dev/null || fail "nginx did not start: $(tail -3 "$work/start.log")"
  done
  fail "no free port found in 20 tries"
}

stop() {
  local work=$1 pid i
  [ -f "$work/watchdog.pid" ] && kill -TERM "$(cat "$work/watchdog.pid")" 2>/dev/null
  rm -f "$work/watchdog.pid"
  [ -f "$work/nginx.pid" ] || return 0
  pid=$(cat "$work/nginx.pid")
  # TERM: nginx's fast shutdown (QUIT would wait for idle keep-alive connections).
  kill -TERM "$pid" 2>/dev/null || { rm -f "$work/nginx.pid"; return 0; }
  # nginx deletes its pid file as it exits (the process itself may linger
  # as a zombie until its parent, init, reaps it).
  for i in $(seq 1 100); do
    [ -f "$work/nginx.pid" ] || return 0
    sleep 0.05
  done
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$work/nginx.pid"
}

case "${1:-}" in
  start) [ $# -ge 3 ] || fail "usage: $0 start ROOT WORK [LOCATIONS]"; start "$2" "$3" "${4:-}" ;;
  stop) [ $# -ge 2 ] || fail "usage: $0 stop WORK"; stop "$2" ;;
  *) fail "usage: $0 start ROOT WORK [LOCATIONS] | stop WORK" ;;
esac
