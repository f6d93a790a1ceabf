# shellcheck shell=bash
# A private PostgreSQL cluster for Parlance: its own data dir, port and socket
# dir under $RUN_DIR/postgres, so the system cluster (5432) is never touched.
# Sourced by deploy/local/services after lib/common.sh; expects RUN_DIR.

PG_PORT=${PG_PORT:-55432}
PG_USER=parlance
PG_PASSWORD=parlance
PG_DB=parlance
PG_OS_USER=postgres           # postgres refuses to run as root

PG_HOME=$RUN_DIR/postgres
PG_DATA=$PG_HOME/data
PG_SOCKET_DIR=$PG_HOME/socket
PG_LOG=$PG_HOME/postgres.log
PG_BIN=""

pg_database_url() {
  printf 'postgres://%s:%s@127.0.0.1:%s/%s' "$PG_USER" "$PG_PASSWORD" "$PG_PORT" "$PG_DB"
}

# Run a command as the cluster owner (only needed when we are root).
as_pg() {
  if [[ $EUID -eq 0 ]]; then
    runuser -u "$PG_OS_USER" -- "$@"
  else
    "$@"
  fi
}

# Locate the newest installed server binaries; install Debian's postgresql
# if there are none (unless --no-install: then just return 1).
# /usr/bin/initdb does not exist on Debian, hence the glob.
pg_find_bin() {
  [[ -n $PG_BIN ]] && return 0
  local initdb
  initdb=$(ls -1 /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n1 || true)
  if [[ -z $initdb ]]; then
    [[ ${1:-} == --no-install ]] && return 1
    apt_install postgresql
    initdb=$(ls -1 /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n1 || true)
    [[ -n $initdb ]] || die "no initdb under /usr/lib/postgresql/*/bin after installing postgresql"
  fi
  PG_BIN=$(dirname "$initdb")
}

# The server must run as a non-root user that owns the data dir and can reach
# it through every parent directory.
pg_ensure_os_user() {
  [[ $EUID -eq 0 ]] || { PG_OS_USER=$(id -un); return 0; }
  if ! id -u "$PG_OS_USER" >/dev/null 2>&1; then
    log "creating system user $PG_OS_USER"
    useradd --system --user-group --home-dir /var/lib/postgresql --shell /bin/bash "$PG_OS_USER"
  fi
  mkdir -p "$PG_HOME"
  if ! runuser -u "$PG_OS_USER" -- test -x "$RUN_DIR"; then
    die "user $PG_OS_USER cannot enter $RUN_DIR (a parent directory is not world-searchable); set PARLANCE_LOCAL_DIR to e.g. /var/tmp/parlance"
  fi
  chown "$PG_OS_USER:" "$PG_HOME"
}

pg_psql() {
  PGPASSWORD=$PG_PASSWORD "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 \
    -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" "$@"
}

pg_running() {
  [[ -s $PG_DATA/PG_VERSION ]] || return 1
  as_pg "$PG_BIN/pg_ctl" -D "$PG_DATA" status >/dev/null 2>&1
}

# initdb once. Password auth (scram) on TCP; trust on the unix socket, which
# lives in a 0700 directory only the cluster owner (and root) can enter.
pg_init() {
  [[ -s $PG_DATA/PG_VERSION ]] && return 0
  # A data dir without PG_VERSION is the leftover of an interrupted initdb.
  rm -rf "$PG_DATA"
  log "initdb $PG_DATA (superuser $PG_USER)"
  local pwfile
  pwfile=$(mktemp "$PG_HOME/.pwfile.XXXXXX")
  printf '%s\n' "$PG_PASSWORD" >"$pwfile"
  chown "$PG_OS_USER:" "$pwfile"
  if ! as_pg "$PG_BIN/initdb" -D "$PG_DATA" -U "$PG_USER" --pwfile="$pwfile" \
      --auth-host=scram-sha-256 --auth-local=trust -E UTF8 --locale=C.UTF-8 \
      >"$PG_HOME/initdb.log" 2>&1; then
    rm -f "$pwfile"
    show_tail "$PG_HOME/initdb.log"
    die "initdb failed"
  fi
  rm -f "$pwfile"
  # Our settings live in their own file, rewritten on every `up` (so PG_PORT
  # can change); postgresql.conf only gains the include line, once.
  echo "include_if_exists = 'parlance.conf'" >>"$PG_DATA/postgresql.conf"
}

pg_write_config() {
  install -d -m 0700 -o "$PG_OS_USER" "$PG_SOCKET_DIR"
  cat >"$PG_DATA/parlance.conf" <<EOF
# Written by deploy/local/services on every 'up'; edits are overwritten.
port = $PG_PORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$PG_SOCKET_DIR'
max_connections = 200
shared_buffers = 256MB
# fsync/synchronous_commit stay at their defaults: tests see real durability.
log_line_prefix = '%m [%p] %q%u@%d '
log_min_duration_statement = -1
EOF
  chown "$PG_OS_USER:" "$PG_DATA/parlance.conf"
}

# Fail early (before anything starts) if another program holds our port.
pg_check_port() {
  pg_find_bin
  if ! pg_running && port_open "$PG_PORT"; then
    die "port $PG_PORT is taken by another process; set PG_PORT to a free port"
  fi
}

pg_start() {
  if pg_running; then
    log "postgres already running on 127.0.0.1:$PG_PORT"
    return 0
  fi
  pg_check_port
  log "starting postgres on 127.0.0.1:$PG_PORT (log: $PG_LOG)"
  touch "$PG_LOG" && chown "$PG_OS_USER:" "$PG_LOG"
  # 9>&-: the postmaster must not inherit (and forever hold) the services lock.
  if ! as_pg "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$PG_LOG" -w -t "$UP_TIMEOUT" start >/dev/null 2>&1 9>&-; then
    show_tail "$PG_LOG"
    die "postgres did not start"
  fi
}

# Wait for TCP + password login, then create the application database.
pg_wait_ready() {
  local deadline=$((SECONDS + UP_TIMEOUT))
  until "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" -d postgres; do
    if ((SECONDS >= deadline)); then
      show_tail "$PG_LOG"
      die "postgres not ready after ${UP_TIMEOUT}s"
    fi
    sleep 0.5
  done
  if [[ -z $(pg_psql -d postgres -tAc "select 1 from pg_database where datname = '$PG_DB'") ]]; then
    log "creating database $PG_DB"
    pg_psql -d postgres -c "create database $PG_DB owner $PG_USER" >/dev/null
  fi
  pg_psql -d "$PG_DB" -tAc 'select 1' >/dev/null || { show_tail "$PG_LOG"; die "cannot query database $PG_DB"; }
  log "postgres ready: $(pg_database_url)"
}

pg_up() {
  pg_find_bin
  pg_ensure_os_user
  pg_init
  pg_write_config
  pg_start
  pg_wait_ready
}

pg_down() {
  if pg_find_bin --no-install && pg_running; then
    log "stopping postgres"
    as_pg "$PG_BIN/pg_ctl" -D "$PG_DATA" -m fast -w -t 60 stop >/dev/null
  else
    log "postgres not running"
  fi
}

# Exit 0 if the cluster runs and answers queries.
pg_status() {
  if pg_find_bin --no-install && pg_running && pg_psql -d "$PG_DB" -tAc 'select 1' >/dev/null 2>&1; then
    echo "postgres: running  $(pg_database_url)  data=$PG_DATA"
    return 0
  fi
  echo "postgres: stopped  (data=$PG_DATA)"
  return 1
}
