#!/usr/bin/env bash
# Debian's Chromium for the browser tests (playwright-core drives it; no browser download).
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
  echo "Installing Chromium from Debian's packages…" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq chromium >&2
fi
