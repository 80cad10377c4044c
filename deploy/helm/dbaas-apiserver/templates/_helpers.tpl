{{/* Chart name. */}}
{{- define "dbaas-apiserver.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Full name: "<release>-apiserver" unless overridden, so release "dbaas" gives "dbaas-apiserver". */}}
{{- define "dbaas-apiserver.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-apiserver" .Release.Name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{- define "dbaas-apiserver.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "dbaas-apiserver.selectorLabels" -}}
app.kubernetes.io/name: {{ include "dbaas-apiserver.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "dbaas-apiserver.labels" -}}
helm.sh/chart: {{ include "dbaas-apiserver.chart" . }}
{{ include "dbaas-apiserver.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/component: apiserver
app.kubernetes.io/part-of: dbaas
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "dbaas-apiserver.serviceAccountName" -}}
{{- default (include "dbaas-apiserver.fullname" .) .Values.serviceAccount.name }}
{{- end }}

{{/* The Secret holding tls.crt, tls.key and ca.crt, whoever makes it. */}}
{{- define "dbaas-apiserver.servingSecretName" -}}
{{- printf "%s-serving-cert" (include "dbaas-apiserver.fullname" .) }}
{{- end }}

{{/* Names kube-apiserver and in-cluster clients use for the Service; the first is the one the aggregator verifies. */}}
{{- define "dbaas-apiserver.serviceDnsNames" -}}
{{- $svc := include "dbaas-apiserver.fullname" . -}}
{{- $ns := .Release.Namespace -}}
{{- list (printf "%s.%s.svc" $svc $ns) (printf "%s.%s.svc.cluster.local" $svc $ns) (printf "%s.%s" $svc $ns) $svc | toJson }}
{{- end }}

{{- define "dbaas-apiserver.policyNamespace" -}}
{{- default .Release.Namespace .Values.policy.namespace }}
{{- end }}

{{/* "true" when cert-manager makes the serving certificate, "" otherwise. */}}
{{- define "dbaas-apiserver.useCertManager" -}}
{{- $v := toString .Values.certManager.enabled -}}
{{- if eq $v "true" -}}
true
{{- else if eq $v "auto" -}}
{{- if .Capabilities.APIVersions.Has "cert-manager.io/v1" }}true{{ end -}}
{{- else if ne $v "false" -}}
{{- fail (printf "certManager.enabled must be true, false or auto, got %q" $v) -}}
{{- end -}}
{{- end }}

{{/*
API groups and resources of each operator the apiserver projects. Keep in step with
the adapters in apiserver/src/adapters (each adapter.ts names its plural).
*/}}
{{- define "dbaas-apiserver.operatorRules" -}}
{{- $rules := list -}}
{{- if .Values.engines.mariadb -}}
{{- $rules = append $rules (dict "apiGroups" (list "k8s.mariadb.com") "resources" (list "mariadbs")) -}}
{{- end -}}
{{- if .Values.engines.mysql -}}
{{- $rules = append $rules (dict "apiGroups" (list "mysql.oracle.com") "resources" (list "innodbclusters")) -}}
{{- end -}}
{{- if .Values.engines.redis -}}
{{- $rules = append $rules (dict "apiGroups" (list "redis.redis.opstreelabs.in") "resources" (list "redis" "redisreplications" "redissentinels" "redisclusters")) -}}
{{- end -}}
{{- if .Values.engines.elasticsearch -}}
{{- $rules = append $rules (dict "apiGroups" (list "elasticsearch.k8s.elastic.co") "resources" (list "elasticsearches")) -}}
{{- end -}}
{{- if .Values.engines.rabbitmq -}}
{{- $rules = append $rules (dict "apiGroups" (list "rabbitmq.com") "resources" (list "rabbitmqclusters")) -}}
{{- end -}}
{{- if .Values.engines.postgresql -}}
{{- $rules = append $rules (dict "apiGroups" (list "postgresql.cnpg.io") "resources" (list "clusters")) -}}
{{- end -}}
{{- $rules | toJson }}
{{- end }}

{{/*
The operators' backup objects, per engine (docs/backups.md): written by the apiserver for
DatabaseBackup create/delete and DatabaseBackupSchedule create/update/delete. A mariadb-operator
schedule is itself a Backup (spec.schedule), so mariadb backups are also updated; MySQL schedules
live in the InnoDBCluster (operatorRules). ECK, the OT redis-operator and RabbitMQ have none.
*/}}
{{- define "dbaas-apiserver.backupRules" -}}
{{- $rules := list -}}
{{- $runs := list "get" "list" "watch" "create" "delete" -}}
{{- $schedules := list "get" "list" "watch" "create" "update" "patch" "delete" -}}
{{- if .Values.engines.mariadb -}}
{{- $rules = append $rules (dict "apiGroups" (list "k8s.mariadb.com") "resources" (list "backups") "verbs" $schedules) -}}
{{- /* read only: the Restore a MariaDB bootstraps from tells whether its restore failed */ -}}
{{- $rules = append $rules (dict "apiGroups" (list "k8s.mariadb.com") "resources" (list "restores") "verbs" (list "get" "list" "watch")) -}}
{{- end -}}
{{- if .Values.engines.mysql -}}
{{- $rules = append $rules (dict "apiGroups" (list "mysql.oracle.com") "resources" (list "mysqlbackups") "verbs" $runs) -}}
{{- end -}}
{{- if .Values.engines.postgresql -}}
{{- $rules = append $rules (dict "apiGroups" (list "postgresql.cnpg.io") "resources" (list "backups") "verbs" $runs) -}}
{{- $rules = append $rules (dict "apiGroups" (list "postgresql.cnpg.io") "resources" (list "scheduledbackups") "verbs" $schedules) -}}
{{- end -}}
{{- $rules | toJson }}
{{- end }}

{{/*
The chart-made serving certificate as JSON {"ca.crt", "tls.crt", "tls.key"} (PEM). An existing Secret
is reused so that upgrades keep the pair (and the APIService caBundle) stable; otherwise a CA and a
certificate for the Service's DNS names are generated. Memoised for the render so that the Secret, the
APIService and the Deployment's checksum all see the same pair.
*/}}
{{- define "dbaas-apiserver.generatedCert" -}}
{{- $memo := .Values._generatedServingCert -}}
{{- if not $memo -}}
{{- $name := include "dbaas-apiserver.servingSecretName" . -}}
{{- $existing := lookup "v1" "Secret" .Release.Namespace $name -}}
{{- $data := dict -}}
{{- if and $existing $existing.data (index $existing.data "ca.crt") (index $existing.data "tls.crt") (index $existing.data "tls.key") -}}
{{- $data = dict "ca.crt" (index $existing.data "ca.crt" | b64dec) "tls.crt" (index $existing.data "tls.crt" | b64dec) "tls.key" (index $existing.data "tls.key" | b64dec) -}}
{{- else -}}
{{- $days := int .Values.generatedCertificateValidityDays -}}
{{- $dnsNames := include "dbaas-apiserver.serviceDnsNames" . | fromJsonArray -}}
{{- $ca := genCA (printf "%s-ca" (include "dbaas-apiserver.fullname" .)) $days -}}
{{- $cert := genSignedCert (first $dnsNames) nil $dnsNames $days $ca -}}
{{- $data = dict "ca.crt" $ca.Cert "tls.crt" $cert.Cert "tls.key" $cert.Key -}}
{{- end -}}
{{- $memo = toJson $data -}}
{{- $_ := set .Values "_generatedServingCert" $memo -}}
{{- end -}}
{{- $memo -}}
{{- end }}

{{/* The user roles' rules by level, written once: each role (rbac-users.yaml) lists its level and the ones below. */}}
{{- define "dbaas-apiserver.userRules.read" }}
  - apiGroups: [dbaas.platform.dev]
    resources: [databaseinstances, databaseinstances/status, databaseinstances/diagnosis, databaseengines]
    verbs: [get, list, watch]
  # the instances' events (the apiserver mirrors the operators' onto them): kubectl describe dbi
  - apiGroups: [""]
    resources: [events]
    verbs: [get, list, watch]
{{- end }}
{{- define "dbaas-apiserver.userRules.write" }}
  - apiGroups: [dbaas.platform.dev]
    resources: [databaseinstances]
    verbs: [create, update, patch, delete, deletecollection]
{{- end }}
{{- define "dbaas-apiserver.userRules.backupsRead" }}
  - apiGroups: [dbaas.platform.dev]
    resources: [databasebackups, databasebackupschedules]
    verbs: [get, list, watch]
{{- end }}
{{- define "dbaas-apiserver.userRules.backupsCreate" }}
  # back up now (a new DatabaseBackup); restoring needs create on databaseinstances and get on the backup
  - apiGroups: [dbaas.platform.dev]
    resources: [databasebackups]
    verbs: [create]
{{- end }}
{{- define "dbaas-apiserver.userRules.backupsAdmin" }}
  # schedules, and deleting backups (the operator object only: no operator deletes stored data)
  - apiGroups: [dbaas.platform.dev]
    resources: [databasebackupschedules]
    verbs: [create, update, patch, delete]
  - apiGroups: [dbaas.platform.dev]
    resources: [databasebackups]
    verbs: [delete]
{{- end }}
{{- define "dbaas-apiserver.userRules.connection" }}
  - apiGroups: [dbaas.platform.dev]
    resources: [databaseinstances/connection]
    verbs: [get]
{{- end }}
