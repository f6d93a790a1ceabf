#!/usr/bin/env bash
# Checks the deployment artefacts without a cluster or Docker engine: `helm lint --strict` and
# `helm template` of helm/parlance with the default values and with an override values file
# (helm/parlance/ci/production-values.yaml) and with the speech server disabled or replaced by an
# external one, and that each missing required setting is refused: the database, the public URL,
# the SMTP server when mail goes out by SMTP (the default), and the keys sealing integration
# credentials (and a speech autoscaler whose maximum is below its minimum).
# Helm is built from source with `go install` into .tools/bin, pinned, and only when the binary
# there is missing or another version (about 2 minutes cold on 2 cores; then nothing to do).
#   scripts/check-deploy.sh                    lint and render
#   scripts/check-deploy.sh --print-helm-path  print the helm binary's path (installing it if needed)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

HELM_VERSION=v3.19.5
TOOLS=$PWD/.tools/bin
HELM=$TOOLS/helm
CHART=helm/parlance

# A plain `go install` build of helm only knows its minor version ("v3.19"), so the build sets
# the full one with -ldflags, and a binary reporting anything else is rebuilt.
installed_version() { "$HELM" version --template '{{.Version}}' 2>/dev/null || true; }

install_helm() {
  if ! command -v go >/dev/null; then
    echo "check-deploy: Go is needed to build helm ${HELM_VERSION} (go install)" >&2
    exit 1
  fi
  mkdir -p "$TOOLS"
  # One build at a time (the test suite may call this while another run is building).
  exec 9>"$TOOLS/.helm.lock"
  flock 9
  if [[ $(installed_version) != "$HELM_VERSION" ]]; then
    echo "check-deploy: building helm ${HELM_VERSION} with go install (first run only)…" >&2
    GOBIN=$TOOLS go install -ldflags "-X helm.sh/helm/v3/internal/version.version=${HELM_VERSION}" \
      "helm.sh/helm/v3/cmd/helm@${HELM_VERSION}" >&2
  fi
  flock -u 9
}

if [[ ! -x $HELM || $(installed_version) != "$HELM_VERSION" ]]; then install_helm; fi

case ${1:-} in
  --print-helm-path | --helm-path) echo "$HELM"; exit 0 ;;
  "") ;;
  *) echo "usage: $0 [--print-helm-path]" >&2; exit 2 ;;
esac

# Each setting the default values leave empty but require (mail.smtpUrl because mail.transport
# defaults to smtp).
database=(--set global.databaseUrl=postgres://parlance:secret@postgres:5432/parlance)
public_url=(--set global.publicUrl=https://parlance.example.com)
smtp=(--set mail.smtpUrl=smtp://parlance:secret@mail:587)
credential_keys=(--set integration.credentialKeys=ops-1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=)
defaults=("${database[@]}" "${public_url[@]}" "${smtp[@]}" "${credential_keys[@]}")
override=(-f "$CHART/ci/production-values.yaml")

"$HELM" lint --strict "$CHART" "${defaults[@]}"
"$HELM" lint --strict "$CHART" "${override[@]}"
"$HELM" template parlance "$CHART" "${defaults[@]}" >/dev/null
"$HELM" template parlance "$CHART" "${override[@]}" >/dev/null
# The speech server's other shapes (the defaults run the bundled one, the override file autoscales
# it): disabled, so transcription uses PocketSphinx, and an external server in its place.
for settings in "--set speech.enabled=false" "--set speechServer.url=http://whisper:8000/v1 --set speechServer.model=whisper-1"; do
  read -ra speech <<<"$settings"
  "$HELM" lint --strict "$CHART" "${defaults[@]}" "${speech[@]}"
  "$HELM" template parlance "$CHART" "${defaults[@]}" "${speech[@]}" >/dev/null
done

# refused SETTING WHAT [helm args...]: rendering with these arguments must fail, naming SETTING.
refused() {
  local setting=$1 what=$2 refusal
  shift 2
  if refusal=$("$HELM" template parlance "$CHART" "$@" 2>&1); then
    echo "check-deploy: the chart rendered without $what" >&2
    exit 1
  elif ! grep -qF "$setting" <<<"$refusal"; then
    echo "check-deploy: rendering without $what failed for another reason:" >&2
    echo "$refusal" >&2
    exit 1
  fi
}

# Without a database (with nothing set at all, and with everything else set), without the public
# URL, with SMTP mail but no SMTP server, or without credential keys, the chart must refuse to
# render, naming the setting.
refused global.databaseUrl "global.databaseUrl or global.existingDatabaseSecret"
refused global.databaseUrl "global.databaseUrl or global.existingDatabaseSecret" "${public_url[@]}" "${smtp[@]}" "${credential_keys[@]}"
refused global.publicUrl "global.publicUrl" "${database[@]}" "${smtp[@]}" "${credential_keys[@]}"
refused mail.smtpUrl "mail.smtpUrl or mail.existingSecret" "${database[@]}" "${public_url[@]}" "${credential_keys[@]}"
refused mail.smtpUrl "mail.smtpUrl or mail.existingSecret (mail.transport=smtp)" "${database[@]}" "${public_url[@]}" "${credential_keys[@]}" --set mail.transport=smtp
refused integration.credentialKeys "integration.credentialKeys or integration.existingSecret" "${database[@]}" "${public_url[@]}" "${smtp[@]}"
# An autoscaler that could never hold its minimum is refused too.
refused speech.autoscaling.minReplicas "speech.autoscaling.maxReplicas at least minReplicas" "${defaults[@]}" \
  --set speech.autoscaling.enabled=true --set speech.autoscaling.minReplicas=5 --set speech.autoscaling.maxReplicas=2

echo "check-deploy: helm ${HELM_VERSION}: lint --strict and template OK (default values, $CHART/ci/production-values.yaml, speech server disabled or external), required settings refused" >&2
