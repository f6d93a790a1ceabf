# shellcheck shell=bash
# Keycloak (optional, for the SSO/OIDC mode) run from its Maven Central server
# distribution: deploy/local/keycloak/pom.xml names org.keycloak:keycloak-quarkus-dist
# and Maven unpacks it into $RUN_DIR/keycloak/dist. Production-like mode:
# `kc.sh build` once (cached), then `kc.sh start --optimized`, plain HTTP on
# 127.0.0.1 only, the dev-file (H2) database in $RUN_DIR/keycloak/data, and the
# realm of deploy/local/keycloak/parlance-realm.json imported at first start.
#
# DEV ONLY: the admin bootstrap credentials (admin/admin by default), the
# client secret and the user passwords in the realm file are public test data.
#
# Sourced by deploy/local/services after lib/common.sh; expects RUN_DIR, HERE,
# UP_TIMEOUT.

KEYCLOAK_PORT=${KEYCLOAK_PORT:-58080}
KEYCLOAK_ADMIN_USER=${KEYCLOAK_ADMIN_USER:-admin}
KEYCLOAK_ADMIN_PASSWORD=${KEYCLOAK_ADMIN_PASSWORD:-admin}
# TieredStopAtLevel=1 (C1 JIT only): boots ~25% faster and uses ~60 MiB less on 2 cores.
KEYCLOAK_JVM_OPTS=${KEYCLOAK_JVM_OPTS:--Xms64m -Xmx512m -XX:TieredStopAtLevel=1}
KEYCLOAK_STOP_TIMEOUT=${KEYCLOAK_STOP_TIMEOUT:-30}
KEYCLOAK_REALM=parlance

KEYCLOAK_POM=$HERE/keycloak/pom.xml
KEYCLOAK_REALM_FILE=$HERE/keycloak/parlance-realm.json
KEYCLOAK_HOME=$RUN_DIR/keycloak
KEYCLOAK_DIST=$KEYCLOAK_HOME/dist          # unpacked distribution (+ build output)
KEYCLOAK_DATA=$KEYCLOAK_HOME/data          # H2 database, import dir, tmp; dist/data links here
KEYCLOAK_LOG=$KEYCLOAK_HOME/keycloak.log   # console log of the server
KEYCLOAK_PID=$KEYCLOAK_HOME/keycloak.pid   # pid of kc.sh (which forwards signals to its java)

# Build-time options (`kc.sh build`); the dist is re-built when they change.
# Health endpoints go on the main port, so no management port (9000) is opened.
KEYCLOAK_BUILD_OPTS=(--db=dev-file --health-enabled=true --http-management-health-enabled=false)

keycloak_url()    { printf 'http://127.0.0.1:%s' "$KEYCLOAK_PORT"; }
keycloak_issuer() { printf '%s/realms/%s' "$(keycloak_url)" "$KEYCLOAK_REALM"; }

keycloak_print_env() {
  echo "export KEYCLOAK_URL=$(keycloak_url)"
  echo "export KEYCLOAK_REALM=$KEYCLOAK_REALM"
  echo "export OIDC_ISSUER=$(keycloak_issuer)"
  echo "export OIDC_JWKS_URL=$(keycloak_issuer)/protocol/openid-connect/certs"
}

keycloak_ensure_tools() {
  ensure_cmd java openjdk-17-jre-headless
  ensure_cmd mvn maven
  ensure_cmd curl curl
  local major
  major=$(java -XshowSettings:properties -version 2>&1 |
          sed -n 's/^ *java\.specification\.version = //p' | cut -d. -f1)
  [[ ${major:-0} -ge 17 ]] || die "Keycloak needs Java 17 or newer; 'java' is version ${major:-unknown}"
}

# Unpack once; re-unpack only when the POM changes (its hash is the stamp).
# The zip stays in ~/.m2, so a re-unpack does not download again.
keycloak_fetch_dist() {
  local want
  want=$(file_sha256 "$KEYCLOAK_POM")
  stamp_holds "$KEYCLOAK_DIST/.pom.sha256" "$want" && return 0

  log "fetching the Keycloak distribution with Maven (first run downloads ~170 MB into ~/.m2)"
  mkdir -p "$KEYCLOAK_HOME"
  rm -rf "$KEYCLOAK_DIST.new"
  if ! mvn -q -B -f "$KEYCLOAK_POM" dependency:unpack \
      -Dkeycloak.unpack.dir="$KEYCLOAK_DIST.new" >"$KEYCLOAK_HOME/mvn.log" 2>&1; then
    show_tail "$KEYCLOAK_HOME/mvn.log"
    die "maven could not fetch the Keycloak distribution"
  fi
  # The zip holds one top directory, keycloak-<version>/.
  local top
  top=$(find "$KEYCLOAK_DIST.new" -mindepth 1 -maxdepth 1 -type d -name 'keycloak-*' | head -n1)
  [[ -n $top && -f $top/bin/kc.sh ]] || die "unexpected layout in $KEYCLOAK_DIST.new (no keycloak-*/bin/kc.sh)"
  chmod +x "$top"/bin/*.sh
  # Keycloak keeps its data under <home>/data; point that at our data dir, so
  # the database survives a new dist.
  rm -rf "$top/data"
  mkdir -p "$KEYCLOAK_DATA"
  ln -s "$KEYCLOAK_DATA" "$top/data"
  echo "$want" >"$top/.pom.sha256"
  rm -rf "$KEYCLOAK_DIST"
  mv "$top" "$KEYCLOAK_DIST"
  rm -rf "$KEYCLOAK_DIST.new"
}

# `kc.sh build` (Quarkus augmentation, ~30 s on 2 cores) only when the dist is
# new or the build options changed; `start --optimized` then skips it.
keycloak_build() {
  local want
  want=$(printf '%s\n' "$(<"$KEYCLOAK_DIST/.pom.sha256")" "${KEYCLOAK_BUILD_OPTS[@]}" | sha256sum | cut -d' ' -f1)
  stamp_holds "$KEYCLOAK_DIST/.build.sha256" "$want" && return 0

  log "building Keycloak (kc.sh build ${KEYCLOAK_BUILD_OPTS[*]})"
  rm -f "$KEYCLOAK_DIST/.build.sha256"
  if ! JAVA_OPTS_KC_HEAP="$KEYCLOAK_JVM_OPTS" "$KEYCLOAK_DIST/bin/kc.sh" build "${KEYCLOAK_BUILD_OPTS[@]}" \
      >"$KEYCLOAK_HOME/build.log" 2>&1 </dev/null 9>&-; then
    show_tail "$KEYCLOAK_HOME/build.log"
    die "kc.sh build failed"
  fi
  echo "$want" >"$KEYCLOAK_DIST/.build.sha256"
}

# The realm is imported at start only if it does not exist yet (Keycloak's
# IGNORE_EXISTING). So when the realm file changed since the last import, the
# dev database is dropped and everything is imported afresh: it holds nothing
# but that realm and the bootstrap admin.
keycloak_prepare_data() {
  mkdir -p "$KEYCLOAK_DATA/import"
  if ! stamp_holds "$KEYCLOAK_DATA/.realm.sha256" "$(file_sha256 "$KEYCLOAK_REALM_FILE")" && [[ -d $KEYCLOAK_DATA/h2 ]]; then
    log "realm file changed since the last import: recreating Keycloak's dev database"
    rm -rf "$KEYCLOAK_DATA/h2"
  fi
  rm -f "$KEYCLOAK_DATA/.realm.sha256"
  cp "$KEYCLOAK_REALM_FILE" "$KEYCLOAK_DATA/import/$KEYCLOAK_REALM-realm.json"
}

keycloak_pid() { [[ -s $KEYCLOAK_PID ]] && cat "$KEYCLOAK_PID" || true; }

# kc.sh's command line names the dist path; so does its java child's
# (-Dkc.home.dir=...), in case kc.sh exec'd into java.
keycloak_running() { pid_matches "$(keycloak_pid)" "$KEYCLOAK_DIST/bin"; }

# The JVM: the java child of kc.sh (or kc.sh itself after an exec).
keycloak_java_pid() {
  local pid child
  pid=$(keycloak_pid)
  [[ -n $pid ]] || return 0
  child=$(pgrep -P "$pid" -x java 2>/dev/null | head -n1 || true)
  if [[ -n $child ]]; then
    echo "$child"
  elif pid_matches "$pid" 'QuarkusEntryPoint'; then
    echo "$pid"
  fi
}

keycloak_check_port() {
  keycloak_running && return 0
  if port_open "$KEYCLOAK_PORT"; then
    die "port $KEYCLOAK_PORT is taken by another process; set KEYCLOAK_PORT"
  fi
}

keycloak_start() {
  rm -f "$KEYCLOAK_PID"
  keycloak_check_port
  log "starting keycloak on $(keycloak_url) (log: $KEYCLOAK_LOG)"
  # setsid: own session, survives this shell. 9>&-: must not hold the services lock.
  # The bootstrap admin is created only when the master realm is first created.
  KC_BOOTSTRAP_ADMIN_USERNAME=$KEYCLOAK_ADMIN_USER \
  KC_BOOTSTRAP_ADMIN_PASSWORD=$KEYCLOAK_ADMIN_PASSWORD \
  JAVA_OPTS_KC_HEAP="$KEYCLOAK_JVM_OPTS" \
  setsid nohup "$KEYCLOAK_DIST/bin/kc.sh" start --optimized \
    --http-enabled=true --http-host=127.0.0.1 --http-port="$KEYCLOAK_PORT" \
    --hostname-strict=false --cache=local --import-realm \
    --log-console-color=false \
    >"$KEYCLOAK_LOG" 2>&1 </dev/null 9>&- &
  echo $! >"$KEYCLOAK_PID"
  KEYCLOAK_STARTED_AT=$SECONDS
}

# Everything before the (slow) wait, so Postgres and Kafka come up meanwhile.
keycloak_prepare_and_start() {
  if keycloak_running; then
    if stamp_holds "$KEYCLOAK_DATA/.realm.sha256" "$(file_sha256 "$KEYCLOAK_REALM_FILE")"; then
      log "keycloak already running (pid $(keycloak_pid))"
      return 0
    fi
    log "the realm file changed since keycloak imported it: restarting keycloak"
    keycloak_down
  fi
  keycloak_ensure_tools
  keycloak_fetch_dist
  keycloak_build
  keycloak_prepare_data
  keycloak_start
}

keycloak_fail() {
  show_tail "$KEYCLOAK_LOG"
  die "$1"
}

# Ready = the realm's OIDC discovery document answers with our issuer (the
# port opens before Keycloak has bootstrapped and answers 503 until then).
keycloak_wait_ready() {
  local deadline=$((SECONDS + UP_TIMEOUT)) doc
  local url
  url="$(keycloak_issuer)/.well-known/openid-configuration"
  while :; do
    keycloak_running || keycloak_fail "keycloak exited during startup"
    doc=$(curl -fsS --max-time 5 "$url" 2>/dev/null || true)
    if [[ $doc == *"\"issuer\":\"$(keycloak_issuer)\""* ]]; then
      break
    fi
    ((SECONDS < deadline)) || keycloak_fail "keycloak realm $KEYCLOAK_REALM not ready after ${UP_TIMEOUT}s ($url)"
    sleep 1
  done
  file_sha256 "$KEYCLOAK_REALM_FILE" >"$KEYCLOAK_DATA/.realm.sha256"
  if [[ -n ${KEYCLOAK_STARTED_AT:-} ]]; then
    log "keycloak ready: $(keycloak_issuer) (booted in $((SECONDS - KEYCLOAK_STARTED_AT))s)"
  else
    log "keycloak ready: $(keycloak_issuer)"
  fi
}

keycloak_down() {
  if ! keycloak_running; then
    rm -f "$KEYCLOAK_PID"
    return 0
  fi
  local pid java i
  pid=$(keycloak_pid)
  java=$(keycloak_java_pid)
  log "stopping keycloak (pid $pid)"
  # kc.sh traps TERM and forwards it to its java.
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < KEYCLOAK_STOP_TIMEOUT * 2; i++)); do
    keycloak_running || { [[ -n $java ]] && pid_matches "$java" QuarkusEntryPoint; } || break
    sleep 0.5
  done
  if keycloak_running || { [[ -n $java ]] && pid_matches "$java" QuarkusEntryPoint; }; then
    warn "keycloak did not stop within ${KEYCLOAK_STOP_TIMEOUT}s; sending SIGKILL"
    if [[ -n $java ]]; then kill -KILL "$java" 2>/dev/null || true; fi
    kill -KILL "$pid" 2>/dev/null || true
    sleep 1
  fi
  rm -f "$KEYCLOAK_PID"
}

# Exit 0 if the server runs and the realm's discovery document answers.
keycloak_status() {
  if keycloak_running &&
     curl -fsS --max-time 5 -o /dev/null "$(keycloak_issuer)/.well-known/openid-configuration" 2>/dev/null; then
    local java rss=""
    java=$(keycloak_java_pid)
    [[ -n $java ]] && rss=$(ps -o rss= -p "$java" 2>/dev/null | tr -d ' ')
    echo "keycloak: running  $(keycloak_url)  realm=$KEYCLOAK_REALM  pid=$(keycloak_pid)${rss:+  rss=$((rss / 1024))MiB}  data=$KEYCLOAK_DATA"
    return 0
  fi
  if keycloak_running; then
    echo "keycloak: starting (pid $(keycloak_pid), realm $KEYCLOAK_REALM not answering yet)"
  else
    echo "keycloak: stopped  (optional: 'services up --with-keycloak'; data=$KEYCLOAK_DATA)"
  fi
  return 1
}
