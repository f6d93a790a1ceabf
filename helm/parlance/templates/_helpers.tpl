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

{{/* A service's image: services.<name>.image when set (skaffold sets it), else <registry>/<name>:<tag>. */}}
{{- define "parlance.image" -}}
{{- $override := (index .root.Values.services .service).image -}}
{{- if $override -}}{{ $override }}{{- else -}}
{{- $registry := .root.Values.image.registry -}}
{{- if $registry -}}{{ printf "%s/%s:%s" (trimSuffix "/" $registry) .service .root.Values.image.tag }}{{- else -}}{{ printf "%s:%s" .service .root.Values.image.tag }}{{- end -}}
{{- end -}}
{{- end -}}

{{/* The Secret holding DATABASE_URL (takes the root context). */}}
{{- define "parlance.databaseSecret" -}}
{{- default (printf "%s-database" .Release.Name) .Values.global.existingDatabaseSecret -}}
{{- end -}}

{{/* The business services, i.e. every key of .Values.services but the gateway (takes the root context). */}}
{{- define "parlance.backends" -}}
{{- range $name, $_ := .Values.services }}{{ if ne $name "gateway" }}{{ $name }} {{ end }}{{ end -}}
{{- end -}}

{{/*
The gateway's <SERVICE>_GRPC_ADDR variables, one per business service, each pointing at that
service's Kubernetes Service and gRPC port (takes the root context).
*/}}
{{- define "parlance.serviceAddresses" -}}
{{- $root := . -}}
{{- range $backend := splitList " " (include "parlance.backends" $root | trim) }}
- name: {{ printf "%s_GRPC_ADDR" (upper $backend) }}
  value: {{ printf "%s:%v" (include "parlance.name" (dict "root" $root "service" $backend)) $root.Values.ports.grpc | quote }}
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
