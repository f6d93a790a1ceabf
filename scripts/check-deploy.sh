#!/usr/bin/env bash
# Checks the deployment artefacts without a cluster or Docker engine: `helm lint --strict` and
# `helm template` of helm/parlance with the default and an override values set. Helm is built
# from source with `go install` into .tools/bin (pinned; cached after the first run).
#   scripts/check-deploy.sh               lint and render
#   scripts/check-deploy.sh --helm-path   print the helm binary's path (installing it if needed)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

HELM_VERSION=v3.19.5
TOOLS=$PWD/.tools/bin
HELM=$TOOLS/helm

if [[ ! -x $HELM ]] || ! "$HELM" version --short 2>/dev/null | grep -q "^${HELM_VERSION}"; then
  echo "Building helm ${HELM_VERSION} with go install (first run only)…" >&2
  mkdir -p "$TOOLS"
  GOBIN=$TOOLS go install "helm.sh/helm/v3/cmd/helm@${HELM_VERSION}" >&2
fi

if [[ ${1:-} == --helm-path ]]; then
  echo "$HELM"
  exit 0
fi

values=(--set global.databaseUrl=postgres://parlance:secret@postgres:5432/parlance)
"$HELM" lint --strict helm/parlance "${values[@]}"
"$HELM" template parlance helm/parlance "${values[@]}" >/dev/null
"$HELM" template parlance helm/parlance --set global.existingDatabaseSecret=parlance-db \
  --set ingress.enabled=true --set podDisruptionBudget.enabled=true \
  --set global.tracesExporter=otlp --set global.otlpEndpoint=http://collector:4318 >/dev/null
echo "helm chart: lint and render OK" >&2
