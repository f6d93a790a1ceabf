# shellcheck shell=bash
# Helpers shared by deploy/local/services and its lib/*.sh. Sourced, not run.
#
# Convention: everything meant for humans goes to stderr, so that stdout of
# `services up` / `services env` stays `eval`-able.

log()  { printf '[services] %s\n' "$*" >&2; }
warn() { printf '[services] WARNING: %s\n' "$*" >&2; }
die()  { printf '[services] ERROR: %s\n' "$*" >&2; exit 1; }

# The SHA-256 of a file, in hex.
file_sha256() { sha256sum "$1" | cut -d' ' -f1; }

# Whether the stamp file $1 exists and holds $2: the work it stamps was done for
# that same input, so it need not be done again.
stamp_holds() { [[ -f $1 && $(<"$1") == "$2" ]]; }

# Print the last lines of a log file to stderr, to explain a failure.
show_tail() {
  local file=$1 lines=${2:-40}
  if [[ -s $file ]]; then
    printf '[services] ---- last %s lines of %s ----\n' "$lines" "$file" >&2
    tail -n "$lines" "$file" >&2 || true
    printf '[services] ---- end of %s ----\n' "$file" >&2
  else
    printf '[services] (log %s is empty or missing)\n' "$file" >&2
  fi
}

# apt-get install, running `apt-get update` at most once per invocation:
# a fresh Debian image has empty package lists, this machine may not.
_APT_UPDATED=0
apt_install() {
  [[ $EUID -eq 0 ]] || die "need root to apt-get install $*; install it yourself and retry"
  if [[ $_APT_UPDATED -eq 0 ]]; then
    log "apt-get update"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    _APT_UPDATED=1
  fi
  log "apt-get install $*"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2
}

# ensure_cmd CMD PACKAGE: install PACKAGE if CMD is not on PATH.
ensure_cmd() {
  command -v "$1" >/dev/null 2>&1 || apt_install "$2"
  command -v "$1" >/dev/null 2>&1 || die "'$1' still missing after installing $2"
}

# True if something accepts TCP connections on 127.0.0.1:PORT (bash's /dev/tcp,
# so no dependency on nc/ss).
port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# True if PID is alive and its command line contains PATTERN (guards against
# a stale pid file whose number was reused by an unrelated process).
pid_matches() {
  local pid=$1 pattern=$2
  [[ -n $pid && -r /proc/$pid/cmdline ]] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "$pattern"
}
