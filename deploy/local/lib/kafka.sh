# shellcheck shell=bash
# A single-node Apache Kafka (KRaft, combined broker+controller) run straight
# from its Maven Central jars: deploy/local/kafka/pom.xml lists them and Maven
# copies the runtime classpath into $RUN_DIR/kafka/libs. No tarball needed.
# Sourced by deploy/local/services after lib/common.sh; expects RUN_DIR, HERE.

KAFKA_PORT=${KAFKA_PORT:-59092}
KAFKA_CONTROLLER_PORT=${KAFKA_CONTROLLER_PORT:-59093}
KAFKA_HEAP_OPTS=${KAFKA_HEAP_OPTS:--Xmx1G -Xms256m}
KAFKA_STOP_TIMEOUT=${KAFKA_STOP_TIMEOUT:-60}

KAFKA_POM=$HERE/kafka/pom.xml
KAFKA_HOME=$RUN_DIR/kafka
KAFKA_LIBS=$KAFKA_HOME/libs
KAFKA_DATA=$KAFKA_HOME/data
KAFKA_LOGS=$KAFKA_HOME/logs
KAFKA_CONF=$KAFKA_HOME/server.properties
KAFKA_LOG4J=$KAFKA_HOME/log4j.properties
KAFKA_TOOLS_LOG4J=$KAFKA_HOME/tools-log4j.properties
KAFKA_PID=$KAFKA_HOME/kafka.pid
KAFKA_CLUSTER_ID_FILE=$KAFKA_HOME/cluster.id
KAFKA_SERVER_LOG=$KAFKA_LOGS/server.log
KAFKA_STDOUT=$KAFKA_LOGS/kafka.out

kafka_brokers() { printf '127.0.0.1:%s' "$KAFKA_PORT"; }

# Run a Kafka CLI class (TopicCommand, StorageTool, ...) from the same jars,
# logging only warnings to stderr.
kafka_tool() {
  java -Xmx256m -Dlog4j.configuration="file:$KAFKA_TOOLS_LOG4J" \
    -cp "$KAFKA_LIBS/*" "$@"
}

kafka_ensure_tools() {
  ensure_cmd java openjdk-17-jre-headless
  ensure_cmd mvn maven
}

# Copy the jars once; re-copy only when the POM changes (its hash is the
# stamp). Maven's ~/.m2 cache makes a re-copy cheap, skipping it makes the
# second `up` cost nothing.
kafka_fetch_libs() {
  local want
  want=$(file_sha256 "$KAFKA_POM")
  stamp_holds "$KAFKA_LIBS/.pom.sha256" "$want" && return 0

  log "resolving Kafka jars with Maven (first run downloads ~100 jars into ~/.m2)"
  rm -rf "$KAFKA_LIBS.new"
  mkdir -p "$KAFKA_HOME"
  if ! mvn -q -B -f "$KAFKA_POM" dependency:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory="$KAFKA_LIBS.new" \
      >"$KAFKA_HOME/mvn.log" 2>&1; then
    show_tail "$KAFKA_HOME/mvn.log"
    die "maven could not fetch the Kafka jars"
  fi
  echo "$want" >"$KAFKA_LIBS.new/.pom.sha256"
  rm -rf "$KAFKA_LIBS"
  mv "$KAFKA_LIBS.new" "$KAFKA_LIBS"
}

# Config files are rewritten on every `up`, so port/env changes apply.
kafka_write_config() {
  mkdir -p "$KAFKA_DATA" "$KAFKA_LOGS"
  cat >"$KAFKA_CONF" <<EOF
# Written by deploy/local/services on every 'up'; edits are overwritten.
# Single node, KRaft mode: this process is both broker and controller.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$KAFKA_DATA

num.partitions=6
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
auto.create.topics.enable=true
# Tests start consumers constantly; do not wait 3 s before the first rebalance.
group.initial.rebalance.delay.ms=0
EOF

  cat >"$KAFKA_LOG4J" <<'EOF'
# reload4j config for the broker; kafka.logs.dir is set on the java command line.
log4j.rootLogger=INFO, server
log4j.appender.server=org.apache.log4j.RollingFileAppender
log4j.appender.server.File=${kafka.logs.dir}/server.log
log4j.appender.server.MaxFileSize=50MB
log4j.appender.server.MaxBackupIndex=3
log4j.appender.server.layout=org.apache.log4j.PatternLayout
log4j.appender.server.layout.ConversionPattern=[%d] %p %m (%c)%n

log4j.appender.state=org.apache.log4j.RollingFileAppender
log4j.appender.state.File=${kafka.logs.dir}/state-change.log
log4j.appender.state.MaxFileSize=20MB
log4j.appender.state.MaxBackupIndex=1
log4j.appender.state.layout=org.apache.log4j.PatternLayout
log4j.appender.state.layout.ConversionPattern=[%d] %p %m (%c)%n

log4j.logger.state.change.logger=INFO, state
log4j.additivity.state.change.logger=false
log4j.logger.kafka.request.logger=WARN
log4j.logger.org.apache.kafka.clients=WARN
log4j.logger.org.apache.kafka.common.utils.AppInfoParser=WARN
EOF

  cat >"$KAFKA_TOOLS_LOG4J" <<'EOF'
# reload4j config for CLI tools run by deploy/local/services: warnings only.
log4j.rootLogger=WARN, stderr
log4j.appender.stderr=org.apache.log4j.ConsoleAppender
log4j.appender.stderr.Target=System.err
log4j.appender.stderr.layout=org.apache.log4j.PatternLayout
log4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n
EOF
}

# Format the KRaft metadata log once, with a cluster id generated once and
# kept, so restarts reuse the same cluster and its topics.
kafka_format_storage() {
  [[ -f $KAFKA_DATA/meta.properties ]] && return 0
  if [[ ! -s $KAFKA_CLUSTER_ID_FILE ]]; then
    kafka_tool kafka.tools.StorageTool random-uuid >"$KAFKA_CLUSTER_ID_FILE.tmp"
    mv "$KAFKA_CLUSTER_ID_FILE.tmp" "$KAFKA_CLUSTER_ID_FILE"
  fi
  log "formatting Kafka storage (cluster id $(<"$KAFKA_CLUSTER_ID_FILE"))"
  if ! kafka_tool kafka.tools.StorageTool format --ignore-formatted \
      -t "$(<"$KAFKA_CLUSTER_ID_FILE")" -c "$KAFKA_CONF" >"$KAFKA_HOME/format.log" 2>&1; then
    show_tail "$KAFKA_HOME/format.log"
    die "kafka storage format failed"
  fi
}

kafka_pid() { [[ -s $KAFKA_PID ]] && cat "$KAFKA_PID" || true; }

kafka_running() { pid_matches "$(kafka_pid)" 'kafka.Kafka'; }

# Fail early (before anything starts) if another program holds our ports.
kafka_check_ports() {
  kafka_running && return 0
  local p
  for p in "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"; do
    if port_open "$p"; then
      die "port $p is taken by another process; set KAFKA_PORT / KAFKA_CONTROLLER_PORT"
    fi
  done
}

kafka_start() {
  if kafka_running; then
    log "kafka already running (pid $(kafka_pid))"
    return 0
  fi
  rm -f "$KAFKA_PID"
  kafka_check_ports
  log "starting kafka on $(kafka_brokers) (log: $KAFKA_SERVER_LOG)"
  # setsid: own session, so the broker survives this shell and a Ctrl-C of it.
  # 9>&-: do not let the broker inherit (and forever hold) the services lock.
  # shellcheck disable=SC2086  # KAFKA_HEAP_OPTS is a list of flags
  setsid nohup java $KAFKA_HEAP_OPTS \
    -server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true \
    -Dkafka.logs.dir="$KAFKA_LOGS" -Dlog4j.configuration="file:$KAFKA_LOG4J" \
    -cp "$KAFKA_LIBS/*" kafka.Kafka "$KAFKA_CONF" \
    >"$KAFKA_STDOUT" 2>&1 </dev/null 9>&- &
  echo $! >"$KAFKA_PID"
}

kafka_fail() {
  show_tail "$KAFKA_STDOUT" 20
  show_tail "$KAFKA_SERVER_LOG"
  die "$1"
}

# Ready = the broker answers a metadata request (listing topics), which needs
# the controller quorum up and the broker registered, not just an open port.
kafka_wait_ready() {
  local deadline=$((SECONDS + UP_TIMEOUT))
  while :; do
    kafka_running || kafka_fail "kafka exited during startup"
    if port_open "$KAFKA_PORT" &&
       timeout 30 java -Xmx128m -Dlog4j.configuration="file:$KAFKA_TOOLS_LOG4J" \
         -cp "$KAFKA_LIBS/*" org.apache.kafka.tools.TopicCommand \
         --bootstrap-server "$(kafka_brokers)" --list >/dev/null 2>&1; then
      break
    fi
    ((SECONDS < deadline)) || kafka_fail "kafka not ready after ${UP_TIMEOUT}s"
    sleep 1
  done
  log "kafka ready: $(kafka_brokers)"
}

# Everything before the (slow) wait, so postgres can start meanwhile.
kafka_prepare_and_start() {
  # Never swap jars or config under a live broker; changes apply on next start.
  if kafka_running; then
    log "kafka already running (pid $(kafka_pid))"
    return 0
  fi
  kafka_ensure_tools
  kafka_fetch_libs
  kafka_write_config
  kafka_format_storage
  kafka_start
}

kafka_down() {
  if ! kafka_running; then
    log "kafka not running"
    rm -f "$KAFKA_PID"
    return 0
  fi
  local pid i
  pid=$(kafka_pid)
  log "stopping kafka (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < KAFKA_STOP_TIMEOUT * 2; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$pid" 2>/dev/null; then
    warn "kafka did not stop within ${KAFKA_STOP_TIMEOUT}s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    sleep 1
  fi
  rm -f "$KAFKA_PID"
}

# Exit 0 if the process runs and its listener accepts connections.
kafka_status() {
  if kafka_running && port_open "$KAFKA_PORT"; then
    echo "kafka:    running  $(kafka_brokers)  pid=$(kafka_pid)  data=$KAFKA_DATA"
    return 0
  fi
  if kafka_running; then
    echo "kafka:    starting (pid $(kafka_pid), port $KAFKA_PORT not open yet)"
  else
    echo "kafka:    stopped  (data=$KAFKA_DATA)"
  fi
  return 1
}
