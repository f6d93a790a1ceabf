#!/usr/bin/env bash
# `make bench`: every benchmark under bench/, against the local PostgreSQL and Kafka. Each prints
# JSON lines with the median of its runs; all lines are also kept in bench/results/<time>.jsonl.
# Figures from one run are comparable with each other; these machines are noisy, so compare
# ratios measured side by side rather than numbers from different days.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/ensure-browser.sh   # the web budget bench opens pages in Chromium
services/speech/install.sh   # the speech benches run the real speech server (Whisper)
scripts/ensure-speech.sh --tests   # and PocketSphinx on calls espeak-ng speaks
infra=$(deploy/local/services up)   # assigned first, so a failure stops the script
eval "$infra"
export DATABASE_URL KAFKA_BROKERS
mkdir -p bench/results
out="bench/results/$(date -u +%Y%m%dT%H%M%SZ).jsonl"
{
  echo "{\"machine\":{\"cores\":$(nproc),\"memory_gib\":$(free -g | awk '/Mem:/{print $2}'),\"node\":\"$(node -v)\",\"load_1m\":$(cut -d' ' -f1 /proc/loadavg)}}"
  for bench in bench/*.bench.ts; do
    echo "== $bench" >&2
    # V8's heap as every Parlance process sets it (services/platform/src/host/heap-tuning.ts).
    node --no-allocation-site-pretenuring --import tsx "$bench"
  done
} | tee "$out"
echo "results: $out" >&2
