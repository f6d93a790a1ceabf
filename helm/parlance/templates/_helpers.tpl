{{/*
Helpers take a context dict: root (the chart's top-level context) and service (a key of
.Values.services, which is also the service's folder, image and module target).
*/}}

{{/* The Kubernetes name of a service: <release>-<service>. */}}
{{- define "parlance.name" -}}
{{- printf "%s-%s" .root.Release.Name .service | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "parlance.labels" -}}
app.kubernetes.io/name: {{ .service }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/part-of: parlance
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end -}}

{{- define "parlance.selector" -}}
app.kubernetes.io/name: {{ .service }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end -}}

{{/*
A deployable's image: its own image value when set (skaffold sets it), else <registry>/<name>:<tag>.
The value is services.<name>.image for the Node services and the gateway, <name>.image for the
speech server, which has a values key of its own (speech).
*/}}
{{- define "parlance.image" -}}
{{- $settings := ternary (index .root.Values.services .service) (index .root.Values .service) (hasKey .root.Values.services .service) -}}
{{- $override := $settings.image -}}
{{- if $override -}}{{ $override }}{{- else -}}
{{- $registry := .root.Values.image.registry -}}
{{- if $registry -}}{{ printf "%s/%s:%s" (trimSuffix "/" $registry) .service .root.Values.image.tag }}{{- else -}}{{ printf "%s:%s" .service .root.Values.image.tag }}{{- end -}}
{{- end -}}
{{- end -}}

{{/* The Secret holding DATABASE_URL (takes the root context). */}}
{{- define "parlance.databaseSecret" -}}
{{- default (printf "%s-database" .Release.Name) .Values.global.existingDatabaseSecret -}}
{{- end -}}

{{/* The Secret holding SMTP_URL (takes the root context). */}}
{{- define "parlance.mailSecret" -}}
{{- default (printf "%s-mail" .Release.Name) .Values.mail.existingSecret -}}
{{- end -}}

{{/* The Secret holding INTEGRATION_CREDENTIAL_KEYS (takes the root context). */}}
{{- define "parlance.integrationSecret" -}}
{{- default (printf "%s-integration-credentials" .Release.Name) .Values.integration.existingSecret -}}
{{- end -}}

{{/* The integration service's own variables (takes the root context): its credential keys, from a Secret only, required; the operators' address for integration requests, with mail, when given. */}}
{{- define "parlance.integrationEnv" -}}
{{- $_ := required "integration.credentialKeys or integration.existingSecret is required: the keys sealing CRM credentials at rest (id:base64 of 32 random bytes, e.g. from openssl rand -base64 32)" (or .Values.integration.credentialKeys .Values.integration.existingSecret) -}}
- name: INTEGRATION_CREDENTIAL_KEYS
  valueFrom:
    secretKeyRef: { name: {{ include "parlance.integrationSecret" . }}, key: INTEGRATION_CREDENTIAL_KEYS }
{{- with .Values.integration.requestsTo }}
- { name: INTEGRATION_REQUESTS_TO, value: {{ . | quote }} }
{{- include "parlance.mailEnv" $ | nindent 0 }}
{{- end }}
{{- with .Values.google }}
{{- if and .clientId (or .clientSecret .existingSecret) }}
- { name: GOOGLE_CLIENT_ID, value: {{ .clientId | quote }} }
- name: GOOGLE_CLIENT_SECRET
  valueFrom:
    secretKeyRef: { name: {{ default (printf "%s-google" $.Release.Name) .existingSecret }}, key: GOOGLE_CLIENT_SECRET }
{{- end }}
{{- end }}
{{- with .Values.integration.hubspot }}
{{- if .clientId }}
{{- $_ := required "integration.hubspot.clientSecret or integration.hubspot.existingSecret is required with integration.hubspot.clientId" (or .clientSecret .existingSecret) }}
- { name: HUBSPOT_CLIENT_ID, value: {{ .clientId | quote }} }
- name: HUBSPOT_CLIENT_SECRET
  valueFrom:
    secretKeyRef: { name: {{ default (printf "%s-hubspot" $.Release.Name) .existingSecret }}, key: HUBSPOT_CLIENT_SECRET }
{{- end }}
{{- end }}
{{- end -}}

{{/* The Secret holding DIAGNOSTICS_TOKEN (takes the root context). */}}
{{- define "parlance.diagnosticsSecret" -}}
{{- default (printf "%s-diagnostics" .Release.Name) .Values.diagnostics.existingSecret -}}
{{- end -}}

{{/* The Secret holding SCORING_LLM_API_KEY (takes the root context). */}}
{{- define "parlance.languageModelSecret" -}}
{{- default (printf "%s-language-model" .Release.Name) .Values.languageModel.existingSecret -}}
{{- end -}}

{{/* The Secret holding TRANSCRIPTION_SPEECH_API_KEY (takes the root context). */}}
{{- define "parlance.speechServerSecret" -}}
{{- default (printf "%s-speech-server" .Release.Name) .Values.speechServer.existingSecret -}}
{{- end -}}

{{/* The PersistentVolumeClaim holding ingest's media files (takes the root context). */}}
{{- define "parlance.mediaClaim" -}}
{{- default (printf "%s-media" .Release.Name) .Values.media.persistence.existingClaim -}}
{{- end -}}

{{/* "true" when several pods on different nodes may mount the media claim at once (takes the root context). */}}
{{- define "parlance.mediaShared" -}}
{{- has "ReadWriteMany" .Values.media.persistence.accessModes -}}
{{- end -}}

{{/*
The secret values this chart puts in Secrets of its own, each the Secret's suffix to its value
(takes the root context): database unless an existing Secret is named, mail when the transport is
smtp and no existing Secret is named, diagnostics when a token is given and no existing Secret is
named, integration-credentials when keys are given and no existing Secret is named, hubspot when
a HubSpot app's id and secret are given and no existing Secret is named, google likewise for the
Google app's secret,
language-model when a model URL and key are given and no existing Secret is named,
speech-server likewise for the speech server. Returned as JSON (include can only return text).
*/}}
{{- define "parlance.chartSecrets" -}}
{{- $secrets := dict -}}
{{- if not .Values.global.existingDatabaseSecret -}}
{{- $_ := set $secrets "database" .Values.global.databaseUrl -}}
{{- end -}}
{{- if and (eq .Values.mail.transport "smtp") (not .Values.mail.existingSecret) -}}
{{- $_ := set $secrets "mail" .Values.mail.smtpUrl -}}
{{- end -}}
{{- if and .Values.diagnostics.token (not .Values.diagnostics.existingSecret) -}}
{{- $_ := set $secrets "diagnostics" .Values.diagnostics.token -}}
{{- end -}}
{{- if and .Values.integration.credentialKeys (not .Values.integration.existingSecret) -}}
{{- $_ := set $secrets "integration-credentials" .Values.integration.credentialKeys -}}
{{- end -}}
{{- if and .Values.google.clientId .Values.google.clientSecret (not .Values.google.existingSecret) -}}
{{- $_ := set $secrets "google" .Values.google.clientSecret -}}
{{- end -}}
{{- if and .Values.integration.hubspot.clientId .Values.integration.hubspot.clientSecret (not .Values.integration.hubspot.existingSecret) -}}
{{- $_ := set $secrets "hubspot" .Values.integration.hubspot.clientSecret -}}
{{- end -}}
{{- if and .Values.languageModel.url .Values.languageModel.apiKey (not .Values.languageModel.existingSecret) -}}
{{- $_ := set $secrets "language-model" .Values.languageModel.apiKey -}}
{{- end -}}
{{- if and .Values.speechServer.url .Values.speechServer.apiKey (not .Values.speechServer.existingSecret) -}}
{{- $_ := set $secrets "speech-server" .Values.speechServer.apiKey -}}
{{- end -}}
{{- toJson $secrets -}}
{{- end -}}

{{/* PUBLIC_URL, required (takes the root context). */}}
{{- define "parlance.publicUrl" -}}
{{- required "global.publicUrl is required: the base URL people open Parlance at, e.g. https://parlance.example.com" .Values.global.publicUrl -}}
{{- end -}}

{{/* Mail (SMTP_URL from a Secret only), for the services that send it: identity and analytics (takes the root context). */}}
{{- define "parlance.mailEnv" -}}
- { name: MAIL_TRANSPORT, value: {{ .Values.mail.transport | quote }} }
- { name: MAIL_FROM, value: {{ .Values.mail.from | quote }} }
{{- if eq .Values.mail.transport "smtp" }}
- name: SMTP_URL
  valueFrom:
    secretKeyRef: { name: {{ include "parlance.mailSecret" . }}, key: SMTP_URL }
{{- end }}
{{- end -}}

{{/*
The identity service's own variables (takes the root context): the public URL, mail (SMTP_URL
from a Secret only) and Google sign-in.
*/}}
{{- define "parlance.identityEnv" -}}
{{- $values := .Values -}}
- { name: PUBLIC_URL, value: {{ include "parlance.publicUrl" . | quote }} }
{{ include "parlance.mailEnv" . }}
{{- if $values.google.clientId }}
- { name: GOOGLE_CLIENT_ID, value: {{ $values.google.clientId | quote }} }
{{- with $values.google.jwksUrl }}
- { name: GOOGLE_JWKS_URL, value: {{ . | quote }} }
{{- end }}
{{- else if $values.google.jwksUrl }}
{{- fail "google.jwksUrl is set but google.clientId is empty: Google sign-in needs the client id" }}
{{- end }}
{{- end -}}

{{/*
The gateway's own variables (takes the root context): the public URL, the trusted proxies, single
sign-on when an issuer is set, the web app's third parties (Google sign-in button, demo scheduling
page, analytics script), and DIAGNOSTICS_TOKEN from a Secret only when one is configured.
*/}}
{{- define "parlance.gatewayEnv" -}}
{{- $values := .Values -}}
- { name: PUBLIC_URL, value: {{ include "parlance.publicUrl" . | quote }} }
{{- /* --set gateway.trustProxy=true arrives as a boolean; false and "" trust no proxy. */}}
{{- $trustProxy := toString $values.gateway.trustProxy }}
{{- if and $trustProxy (ne $trustProxy "false") }}
- { name: GATEWAY_TRUST_PROXY, value: {{ $trustProxy | quote }} }
{{- end }}
{{- if $values.sso.issuer }}
- { name: OIDC_ISSUER, value: {{ $values.sso.issuer | quote }} }
{{- with $values.sso.jwksUrl }}
- { name: OIDC_JWKS_URL, value: {{ . | quote }} }
{{- end }}
- { name: OIDC_AUDIENCE, value: {{ $values.sso.audience | quote }} }
- { name: OIDC_ORGANIZATION_CLAIM, value: {{ $values.sso.organizationClaim | quote }} }
- { name: OIDC_ROLES_CLAIM, value: {{ $values.sso.rolesClaim | quote }} }
{{- else if $values.sso.jwksUrl }}
{{- fail "sso.jwksUrl is set but sso.issuer is empty: single sign-on needs the issuer" }}
{{- end }}
{{- with $values.google.clientId }}
- { name: GOOGLE_CLIENT_ID, value: {{ . | quote }} }
{{- end }}
{{- with $values.web.demoSchedulingUrl }}
- { name: DEMO_SCHEDULING_URL, value: {{ . | quote }} }
{{- end }}
- { name: DEMO_CONTACT_EMAIL, value: {{ $values.web.demoContactEmail | quote }} }
{{- with $values.web.analyticsScriptUrl }}
- { name: WEB_ANALYTICS_SCRIPT_URL, value: {{ . | quote }} }
{{- end }}
{{- if or $values.diagnostics.token $values.diagnostics.existingSecret }}
- name: DIAGNOSTICS_TOKEN
  valueFrom:
    secretKeyRef: { name: {{ include "parlance.diagnosticsSecret" . }}, key: DIAGNOSTICS_TOKEN }
{{- end }}
{{- end -}}

{{/*
A whole number as an environment variable's value, quoted. A number from a values file arrives as
float64, which quote would write 1.2e+06; toJson writes 1200000 (and an int64 from --set as is).
*/}}
{{- define "parlance.integer" -}}
{{- toJson . | quote -}}
{{- end -}}

{{/*
The scoring service's own variables (takes the root context): the optional language model for
evaluations and criterion suggestions, its key from a Secret only, then the evaluation workers.
The settings whose values default to null are rendered only when given, so the service's own
defaults hold otherwise; the model's are refused without its URL, like the model and the key.
*/}}
{{- define "parlance.scoringEnv" -}}
{{- $model := .Values.languageModel -}}
{{- $scoring := .Values.scoring | default dict -}}
{{- $tuning := list (list "evaluationTimeoutMs" "SCORING_LLM_EVALUATION_TIMEOUT_MS") (list "maxAttempts" "SCORING_LLM_MAX_ATTEMPTS") (list "contextTokens" "SCORING_LLM_CONTEXT_TOKENS") -}}
{{- if $model.url }}
- { name: SCORING_LLM_URL, value: {{ $model.url | quote }} }
- { name: SCORING_LLM_MODEL, value: {{ required "languageModel.model is required when languageModel.url is set" $model.model | quote }} }
- { name: SCORING_LLM_TIMEOUT_MS, value: {{ include "parlance.integer" $model.timeoutMs }} }
{{- range $setting := $tuning }}
{{- $value := index $model (first $setting) }}
{{- if not (kindIs "invalid" $value) }}
- { name: {{ last $setting }}, value: {{ include "parlance.integer" $value }} }
{{- end }}
{{- end }}
{{- if or $model.apiKey $model.existingSecret }}
- name: SCORING_LLM_API_KEY
  valueFrom:
    secretKeyRef: { name: {{ include "parlance.languageModelSecret" . }}, key: SCORING_LLM_API_KEY }
{{- end }}
{{- else }}
{{- $stray := list }}
{{- range $name := list "model" "apiKey" "existingSecret" }}
{{- if index $model . }}{{ $stray = append $stray (printf "languageModel.%s" $name) }}{{ end }}
{{- end }}
{{- range $setting := $tuning }}
{{- if not (kindIs "invalid" (index $model (first $setting))) }}{{ $stray = append $stray (printf "languageModel.%s" (first $setting)) }}{{ end }}
{{- end }}
{{- with $stray }}
{{- fail (printf "%s %s set but languageModel.url is empty: the model needs its URL" (join ", " .) (ternary "is" "are" (eq (len .) 1))) }}
{{- end }}
{{- end }}
{{- with $scoring.workers }}
- { name: SCORING_WORKERS, value: {{ include "parlance.integer" . }} }
{{- end }}
{{- with $scoring.leaseSeconds }}
- { name: SCORING_LEASE_SECONDS, value: {{ include "parlance.integer" . }} }
{{- end }}
{{- end -}}

{{/*
"true" when the chart runs its own speech server, <release>-speech (takes the root context): the
bundled server is enabled and no other server is named in speechServer.url, which wins.
*/}}
{{- define "parlance.speechBundled" -}}
{{- and .Values.speech.enabled (not .Values.speechServer.url) -}}
{{- end -}}

{{/* The port the speech server listens on in its container (its image's command says so), and its Service's port. */}}
{{- define "parlance.speechPort" -}}8000{{- end -}}

{{/*
The transcription service's own variables (takes the root context): the speech server it sends
audio to, as an OpenAI-compatible API. An external server when speechServer.url is set (its key
from a Secret only); else the chart's own speech server, when enabled, at its Service; else the
offline PocketSphinx engine of the transcription image, named explicitly. Never the `local`
engine, which would run Python inside the transcription pod: its image has none.
*/}}
{{- define "parlance.transcriptionEnv" -}}
{{- $server := .Values.speechServer -}}
{{- if $server.url }}
- { name: TRANSCRIPTION_SPEECH_ENGINE, value: openai }
- { name: TRANSCRIPTION_SPEECH_URL, value: {{ $server.url | quote }} }
- { name: TRANSCRIPTION_SPEECH_MODEL, value: {{ required "speechServer.model is required when speechServer.url is set" $server.model | quote }} }
- { name: TRANSCRIPTION_SPEECH_TIMEOUT_MS, value: {{ include "parlance.integer" $server.timeoutMs }} }
{{- if or $server.apiKey $server.existingSecret }}
- name: TRANSCRIPTION_SPEECH_API_KEY
  valueFrom:
    secretKeyRef: { name: {{ include "parlance.speechServerSecret" . }}, key: TRANSCRIPTION_SPEECH_API_KEY }
{{- end }}
{{- else if or $server.model $server.apiKey $server.existingSecret }}
{{- fail "speechServer.model, apiKey or existingSecret is set but speechServer.url is empty: the speech server needs its URL" }}
{{- else if eq (include "parlance.speechBundled" .) "true" }}
- { name: TRANSCRIPTION_SPEECH_ENGINE, value: openai }
- { name: TRANSCRIPTION_SPEECH_URL, value: {{ printf "http://%s:%s/v1" (include "parlance.name" (dict "root" . "service" "speech")) (include "parlance.speechPort" .) | quote }} }
- { name: TRANSCRIPTION_SPEECH_MODEL, value: whisper-tiny.en }
- { name: TRANSCRIPTION_SPEECH_TIMEOUT_MS, value: {{ include "parlance.integer" $server.timeoutMs }} }
{{- else }}
- { name: TRANSCRIPTION_SPEECH_ENGINE, value: pocketsphinx }
{{- end }}
{{- end -}}

{{/* The business services, i.e. every key of .Values.services but the gateway (takes the root context). */}}
{{- define "parlance.backends" -}}
{{- range $name, $_ := .Values.services }}{{ if ne $name "gateway" }}{{ $name }} {{ end }}{{ end -}}
{{- end -}}

{{/*
The services each deployable calls over gRPC, by name: the gateway calls every business service,
ingest calls identity (an upload's team and representative), transcription calls ingest (the
media it transcribes) and integration calls identity and ingest (a synced call's team, and the
call itself, imported like an upload). Any other service calls none. Takes the context dict, returns the names
separated by spaces.
*/}}
{{- define "parlance.callees" -}}
{{- if eq .service "gateway" -}}
{{- include "parlance.backends" .root -}}
{{- else -}}
{{- get (dict "ingest" "identity" "transcription" "ingest" "scoring" "transcription" "integration" "identity ingest") .service -}}
{{- end -}}
{{- end -}}

{{/*
A deployable's <SERVICE>_GRPC_ADDR variables, one per service it calls, each pointing at that
service's Kubernetes Service and gRPC port (takes the context dict).
*/}}
{{- define "parlance.serviceAddresses" -}}
{{- $root := .root -}}
{{- range $callee := include "parlance.callees" . | trim | splitList " " | compact }}
- name: {{ printf "%s_GRPC_ADDR" (upper $callee) }}
  value: {{ printf "%s:%v" (include "parlance.name" (dict "root" $root "service" $callee)) $root.Values.ports.grpc | quote }}
{{- end }}
{{- end -}}

{{/* Extra variables: global.env, then services.<name>.env, which wins on a shared name. */}}
{{- define "parlance.extraEnv" -}}
{{- $env := merge (deepCopy ((index .root.Values.services .service).env | default dict)) (.root.Values.global.env | default dict) -}}
{{- range $name := keys $env | sortAlpha }}
{{- $value := index $env $name }}
- name: {{ $name }}
  {{- /* YAML numbers arrive as float64: toJson writes 2097152, where toString would write 2.097152e+06. */}}
  value: {{ ternary $value (toJson $value) (kindIs "string" $value) | quote }}
{{- end }}
{{- end -}}
