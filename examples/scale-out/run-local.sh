#!/usr/bin/env bash
# The docker-compose.yml setup without Docker: three `svc serve` processes on one PostgreSQL
# database and the round-robin proxy in front, on this machine. Needs a built checkout
# (`npm install && npm run build`) and a PostgreSQL server you can create tables in.
#
#   SVC_DB=postgres://user:password@127.0.0.1:5432/svc examples/scale-out/run-local.sh
#
# Ports: the proxy on 8080 (PORT), the processes on 8081-8083. Ctrl-C stops them all.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
: "${SVC_DB:?set SVC_DB to the PostgreSQL database, e.g. postgres://postgres@127.0.0.1:5432/svc}"
case "$SVC_DB" in postgres://* | postgresql://*) ;; *) echo "run-local.sh: SVC_DB must be a postgres:// URL" >&2; exit 2 ;; esac
# Every process must seal and open secrets with one key: made once, kept beside this script.
key_file="${SVC_SECRET_KEY_FILE:-$root/.svc/scale-out.key}"
if [ -z "${SVC_SECRET_KEY:-}" ]; then
  mkdir -p "$(dirname "$key_file")"
  [ -f "$key_file" ] || (umask 077 && node -e "process.stdout.write(require('node:crypto').randomBytes(32).toString('base64'))" > "$key_file")
  SVC_SECRET_KEY="$(cat "$key_file")"
fi
export SVC_DB SVC_SECRET_KEY
export SVC_BOOTSTRAP_CLIENT_ID="${SVC_BOOTSTRAP_CLIENT_ID:-admin}"
if [ -z "${SVC_BOOTSTRAP_CLIENT_SECRET:-}" ]; then
  SVC_BOOTSTRAP_CLIENT_SECRET="svc_sk_$(node -e "process.stdout.write(require('node:crypto').randomBytes(32).toString('base64url').slice(0, 43))")"
  echo "run-local.sh: the admin client's secret (used on a first start only): $SVC_BOOTSTRAP_CLIENT_SECRET" >&2
fi
export SVC_BOOTSTRAP_CLIENT_SECRET

pids=()
stop() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait
}
trap stop EXIT INT TERM

for port in 8081 8082 8083; do
  node "$root/packages/gateway/bin/svc.js" serve --port "$port" &
  pids+=("$!")
done
UPSTREAMS=127.0.0.1:8081,127.0.0.1:8082,127.0.0.1:8083 PORT="${PORT:-8080}" node "$root/examples/scale-out/proxy.mjs" &
pids+=("$!")
wait -n "${pids[@]}"
