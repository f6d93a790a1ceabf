{{/* The Kubernetes name of a service: <release>-<service>. */}}
{{- define "parlance.name" -}}
{{- printf "%s-%s" .root.Release.Name .service | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "parlance.labels" -}}
app.kubernetes.io/name: {{ .service }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/part-of: parlance
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
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
{{- if $registry -}}{{ printf "%s/%s:%s" $registry .service .root.Values.image.tag }}{{- else -}}{{ printf "%s:%s" .service .root.Values.image.tag }}{{- end -}}
{{- end -}}
{{- end -}}

{{- define "parlance.databaseSecret" -}}
{{- default (printf "%s-database" .Release.Name) .Values.global.existingDatabaseSecret -}}
{{- end -}}

{{/* The six business services, i.e. every service but the gateway. */}}
{{- define "parlance.backends" -}}
{{- range $name, $_ := .Values.services }}{{ if ne $name "gateway" }}{{ $name }} {{ end }}{{ end -}}
{{- end -}}
