#!/usr/bin/env bash
# `make eval`: measures the evaluation engines on the public datasets (DATASETS, default
# ../shared/datasets from the repo root) beside baselines computed in the same run. Figures to
# stdout, progress to stderr, everything to eval-results.json. Flags (--engine, --only, --limit)
# are passed on: `make eval ARGS="--only qmsum --limit 5"`. See services/scoring/eval/README.md.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec node --import tsx services/scoring/eval/run-eval.ts --datasets "${DATASETS:-../shared/datasets}" "$@"
