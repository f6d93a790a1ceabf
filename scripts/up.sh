#!/usr/bin/env bash
# `make up`: every service as its own process (distributed mode) against the local PostgreSQL and
# Kafka from deploy/local/services. `scripts/up.sh start|stop|status`. Logs and pids in .run/up/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

RUN=${UP_RUN_DIR:-.run/up}
SERVICES=(identity ingest transcription scoring analytics integration)
GRPC_BASE=${UP_GRPC_BASE_PORT:-50061}
ADMIN_BASE=${UP_ADMIN_BASE_PORT:-9411}
GATEWAY_PORT=${GATEWAY_PORT:-8080}

addresses() {
  local i=0
  for service in "${SERVICES[@]}"; do
    printf '%s_GRPC_ADDR=127.0.0.1:%d\n' "${service^^}" $((GRPC_BASE + i))
    i=$((i + 1))
  done
}

launch() { # name, entry point, then environment assignments
  local name=$1 entry=$2; shift 2
  env "$@" setsid node --enable-source-maps --import tsx "$entry" >"$RUN/$name.log" 2>&1 < /dev/null &
  echo $! >"$RUN/$name.pid"
}

start() {
  mkdir -p "$RUN"
  eval "$(deploy/local/services env)"
  # Local development: e-mails are kept in $RUN/mail (links logged) rather than sent, and the
  # links in them point at this gateway.
  local common=(PARLANCE_MODE=distributed DATABASE_URL="$DATABASE_URL" KAFKA_BROKERS="$KAFKA_BROKERS"
    MAIL_TRANSPORT="${MAIL_TRANSPORT:-capture}" MAIL_CAPTURE_DIR="${MAIL_CAPTURE_DIR:-$RUN/mail}"
    PUBLIC_URL="${PUBLIC_URL:-http://127.0.0.1:$GATEWAY_PORT}")
  # The key sealing CRM credentials: made once for this machine and kept in $RUN (its own only).
  local key_file="$RUN/integration-credential-key"
  [[ -s $key_file ]] || (umask 077 && printf 'local:%s\n' "$(head -c 32 /dev/urandom | base64)" >"$key_file")
  # Services call one another too (ingest asks identity, transcription reads media from ingest).
  mapfile -t service_addresses < <(addresses)
  local i=0
  for service in "${SERVICES[@]}"; do
    local own=()
    [[ $service == integration ]] && own=(INTEGRATION_CREDENTIAL_KEYS="${INTEGRATION_CREDENTIAL_KEYS:-$(cat "$key_file")}")
    launch "$service" "services/$service/src/main.ts" "${common[@]}" "${service_addresses[@]}" "${own[@]}" \
      GRPC_PORT=$((GRPC_BASE + i)) ADMIN_PORT=$((ADMIN_BASE + i)) INGEST_MEDIA_DIR="${INGEST_MEDIA_DIR:-$RUN/media}"
    i=$((i + 1))
  done
  launch gateway gateway/src/main.ts "${common[@]}" "${service_addresses[@]}" GATEWAY_PORT="$GATEWAY_PORT" \
    ADMIN_PORT=$((ADMIN_BASE + i))

  echo "waiting for every process to be ready…" >&2
  local deadline=$((SECONDS + 90))
  for port in $(seq "$ADMIN_BASE" $((ADMIN_BASE + ${#SERVICES[@]}))); do
    until curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; do
      if (( SECONDS > deadline )) || ! status >/dev/null; then
        echo "a process did not become ready (admin port $port); logs are in $RUN/" >&2
        tail -n 20 "$RUN"/*.log >&2 || true
        exit 1
      fi
      sleep 0.5
    done
  done
  echo "Parlance (distributed) is running at http://127.0.0.1:$GATEWAY_PORT — logs in $RUN/, stop with: make down"
}

stop() {
  shopt -s nullglob
  local pids=()
  for file in "$RUN"/*.pid; do
    local pid; pid=$(cat "$file")
    if kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid"; pids+=("$pid"); fi
    rm -f "$file"
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$pid" 2>/dev/null || true
  done
}

status() {
  shopt -s nullglob
  local code=0 files=("$RUN"/*.pid)
  if (( ${#files[@]} == 0 )); then echo "nothing started by make up is running"; return 3; fi
  for file in "${files[@]}"; do
    local name; name=$(basename "$file" .pid)
    if kill -0 "$(cat "$file")" 2>/dev/null; then echo "$name: running"; else echo "$name: stopped"; code=3; fi
  done
  return $code
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
