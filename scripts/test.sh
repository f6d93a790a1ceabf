#!/usr/bin/env bash
# `make test`: static checks, then every test (unit, integration, end-to-end) against the real
# PostgreSQL and Kafka (and Keycloak, for the SSO tests) that deploy/local/services starts. Ends with one "N passed, N failed" line.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

step() { printf '\n== %s\n' "$*" >&2; }

step "Chromium for the browser tests"
scripts/ensure-browser.sh

step "ffmpeg, PocketSphinx, espeak-ng and real recordings (pocketsphinx-testdata, codec2-examples) for the speech tests"
scripts/ensure-speech.sh --tests

step "the speech server (Whisper) for the speech tests and the standalone product"
services/speech/install.sh

step "starting PostgreSQL, Kafka and Keycloak"
# Assigned first: a failure inside $(…) stops the script here, where eval alone would go on.
infra=$(deploy/local/services up --with-keycloak)
eval "$infra"
export DATABASE_URL KAFKA_BROKERS KEYCLOAK_URL KEYCLOAK_REALM OIDC_ISSUER OIDC_JWKS_URL

step "lint";             npx eslint . --max-warnings=0
step "type check";       npx tsc -p tsconfig.json && npx tsc -p web/tsconfig.json
step "proto lint";       (cd proto && npx buf lint)
step "generated code";   npm run check -w @parlance/proto --silent
step "OpenAPI document"; node --import tsx gateway/scripts/openapi.ts --check
step "web API endpoints"; node --import tsx web/scripts/generate-api.ts --check
step "Helm chart";       scripts/check-deploy.sh

step "tests"
mkdir -p .run
report=.run/vitest-report.json
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json="$report" || status=$?

node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$report"
exit "$status"
