#!/usr/bin/env bash
# Regenerates the TypeScript from the .proto files into a temporary directory and compares it with
# the committed gen/. Run from proto/ (npm run check -w @parlance/proto does). Exit 1 if stale.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

buf generate --output "$scratch"
if ! diff -r "$scratch/gen" gen; then
  echo "generated code is stale: run make proto" >&2
  exit 1
fi
echo "proto/gen is up to date"
