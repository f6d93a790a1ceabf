#!/usr/bin/env bash
# `make up`: every service as its own process (distributed mode) against the local PostgreSQL and
# Kafka from deploy/local/services, and the speech server (Whisper) as a process of its own that
# transcription sends audio to. `scripts/up.sh start|stop|status`. Logs and pids in .run/up/.
#
# The speech server's Python environment (services/speech/install.sh: faster-whisper and the
# Whisper weights) is installed before anything starts, so the first `make up` waits for it (a
# minute or two) and later ones find it in place at once. On a machine where Python cannot be set
# up at all, transcription is told to use PocketSphinx instead, and start says so.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

RUN=${UP_RUN_DIR:-.run/up}
SERVICES=(identity ingest transcription scoring analytics integration)
GRPC_BASE=${UP_GRPC_BASE_PORT:-50061}
# The services' admin ports, then the gateway's, then the speech process's.
ADMIN_BASE=${UP_ADMIN_BASE_PORT:-9411}
GATEWAY_PORT=${GATEWAY_PORT:-8080}
# The speech server's own port (OpenAI's transcription API under /v1), fixed so transcription
# knows where it is.
SPEECH_PORT=${UP_SPEECH_PORT:-8091}
SPEECH_MODEL=whisper-tiny.en
# install.sh's exit code when Python (with venv and pip) cannot be set up on this machine.
SPEECH_UNAVAILABLE=69

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

# Waits until `curl` gets a success from URL, or fails start with the logs (deadline in SECONDS).
wait_for() { # what, url, deadline
  local what=$1 url=$2 deadline=$3
  until curl -fsS "$url" >/dev/null 2>&1; do
    if (( SECONDS > deadline )) || ! status >/dev/null; then
      echo "$what did not become ready ($url); logs are in $RUN/" >&2
      tail -n 20 "$RUN"/*.log >&2 || true
      exit 1
    fi
    sleep 0.5
  done
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

  # The speech server first: installed (or found installed), then its process, which starts
  # Whisper on SPEECH_PORT; transcription sends audio there. Without Python, PocketSphinx.
  # The speech server works on one request at a time with every CPU: more requests at once would
  # only queue there, where their timeouts run, so transcription sends one at a time.
  local speech=(TRANSCRIPTION_SPEECH_URL="http://127.0.0.1:$SPEECH_PORT/v1" TRANSCRIPTION_SPEECH_MODEL="$SPEECH_MODEL" TRANSCRIPTION_CONCURRENCY=1)
  local speech_runs=true install=0
  PYTHON="${SPEECH_PYTHON:-python3}" services/speech/install.sh ${SPEECH_VENV_DIR:+"$SPEECH_VENV_DIR"} || install=$?
  if (( install == SPEECH_UNAVAILABLE )); then
    echo "WARNING: Python cannot be set up here, so there is no speech server: recordings are transcribed by PocketSphinx, which gets far more words wrong than Whisper." >&2
    speech=(TRANSCRIPTION_SPEECH_ENGINE=pocketsphinx)
    speech_runs=false
  elif (( install != 0 )); then
    echo "the speech server could not be installed (services/speech/install.sh failed, see above)" >&2
    exit 1
  fi
  if [[ $speech_runs == true ]]; then
    if (exec 3<>"/dev/tcp/127.0.0.1/$SPEECH_PORT") 2>/dev/null; then
      echo "port $SPEECH_PORT, the speech server's, is in use: stop what holds it or choose another with UP_SPEECH_PORT" >&2
      exit 1
    fi
    launch speech services/speech/src/main.ts "${common[@]}" SPEECH_PORT="$SPEECH_PORT" \
      ADMIN_PORT=$((ADMIN_BASE + ${#SERVICES[@]} + 1))
  fi

  # Services call one another too (ingest asks identity, transcription reads media from ingest).
  mapfile -t service_addresses < <(addresses)
  local i=0
  for service in "${SERVICES[@]}"; do
    local own=()
    [[ $service == integration ]] && own=(INTEGRATION_CREDENTIAL_KEYS="${INTEGRATION_CREDENTIAL_KEYS:-$(cat "$key_file")}")
    [[ $service == transcription ]] && own=("${speech[@]}")
    launch "$service" "services/$service/src/main.ts" "${common[@]}" "${service_addresses[@]}" "${own[@]}" \
      GRPC_PORT=$((GRPC_BASE + i)) ADMIN_PORT=$((ADMIN_BASE + i)) INGEST_MEDIA_DIR="${INGEST_MEDIA_DIR:-$RUN/media}"
    i=$((i + 1))
  done
  launch gateway gateway/src/main.ts "${common[@]}" "${service_addresses[@]}" GATEWAY_PORT="$GATEWAY_PORT" \
    ADMIN_PORT=$((ADMIN_BASE + i))

  echo "waiting for every process to be ready…" >&2
  local deadline=$((SECONDS + 90)) last=$((ADMIN_BASE + ${#SERVICES[@]}))
  [[ $speech_runs == true ]] && last=$((last + 1))
  for port in $(seq "$ADMIN_BASE" "$last"); do
    wait_for "a process (admin port $port)" "http://127.0.0.1:$port/readyz" "$deadline"
  done
  # The speech process is ready before Whisper serves (it loads in seconds once installed).
  [[ $speech_runs == true ]] && wait_for "the speech server" "http://127.0.0.1:$SPEECH_PORT/health" "$deadline"
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
    # Each process leads its own group (setsid): a process that did not stop in time is killed
    # with whatever it left in that group. (The speech server ends with its parent by itself.)
    kill -KILL -- -"$pid" 2>/dev/null || true
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
