#!/usr/bin/env bash
# Makes sure the given Python can create virtual environments (its venv and ensurepip modules),
# installing Debian's python3-venv when they are missing and this user may (root, or sudo without
# a password). Shared by services/speech/install.sh and scripts/ensure-embedding-model.sh.
#
#   scripts/ensure-python-venv.sh [PYTHON]     # default: python3
#
# Exit codes: 0 it can; 69 it cannot (the message says what to install). Progress goes to stderr.
set -euo pipefail
python=${1:-python3}

can_venv() { "$python" -c 'import venv, ensurepip' >/dev/null 2>&1; }

can_venv && exit 0
if command -v apt-get >/dev/null 2>&1 && { (( EUID == 0 )) || sudo -n true 2>/dev/null; }; then
  echo "Installing Python's venv module from Debian's packages…" >&2
  sudo_if_needed=()
  (( EUID == 0 )) || sudo_if_needed=(sudo -n)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_if_needed[@]}" apt-get update -qq >&2 || true
  "${sudo_if_needed[@]}" apt-get install -y -qq python3-venv >&2 || true
fi
can_venv && exit 0
echo "Python's venv module is missing (Debian: apt-get install python3-venv)." >&2
exit 69
