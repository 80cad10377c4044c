{{/* Name of the ClusterRole and its binding: the release name unless overridden. */}}
{{- define "dbaas-backstage.fullname" -}}
{{- default .Release.Name .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "dbaas-backstage.serviceAccountNamespace" -}}
{{- default .Release.Namespace .Values.serviceAccount.namespace }}
{{- end }}

{{- define "dbaas-backstage.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/component: backstage-backend
app.kubernetes.io/part-of: dbaas
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}
