{{/* Which roles this release deploys: "true" or "". */}}
{{- define "tenant-platform.deploys" -}}
{{- if eq .role "api" -}}{{- if .root.Values.api.enabled -}}true{{- end -}}
{{- else if eq .role "dispatcher" -}}{{- if eq .root.Values.dispatcher.mode "deployment" -}}true{{- end -}}
{{- else -}}true
{{- end -}}
{{- end -}}

{{/* Names and labels. */}}
{{- define "tenant-platform.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "tenant-platform.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The name of one role's objects: <fullname>-api, -worker, -dispatcher. */}}
{{- define "tenant-platform.roleName" -}}
{{- printf "%s-%s" (include "tenant-platform.fullname" .root | trunc 52 | trimSuffix "-") .role -}}
{{- end -}}

{{- define "tenant-platform.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "tenant-platform.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one role (dict "root" $ "role" "api"). */}}
{{- define "tenant-platform.selectorLabels" -}}
app.kubernetes.io/name: {{ include "tenant-platform.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .role }}
{{- end -}}

{{- define "tenant-platform.roleLabels" -}}
{{ include "tenant-platform.labels" .root }}
app.kubernetes.io/component: {{ .role }}
{{- end -}}

{{- define "tenant-platform.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "tenant-platform.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "tenant-platform.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{/* A setting's environment variable, as domain/settings.ts names it: log.level -> LOG_LEVEL. */}}
{{- define "tenant-platform.envName" -}}
{{- . | upper | replace "." "_" | replace "-" "_" -}}
{{- end -}}

{{/*
The settings domain/settings.ts marks secret: only ever from a Secret (test/unit/deploy holds this
list, and values.schema.json's, to that file).
*/}}
{{- define "tenant-platform.secretSettings" -}}
database.url s3.access-key-id s3.secret-access-key internal.key secrets.master-key phone.provider-api-key phone.webhook-secret signatures.pkcs12-base64 signatures.pkcs12-password forms.embed-key mail.smtp-url metrics.token
{{- end -}}

{{/* The only secrets a dispatcher pod receives: it reads PostgreSQL and answers scrapes. */}}
{{- define "tenant-platform.dispatcherSecrets" -}}
database.url metrics.token
{{- end -}}

{{/* Settings the chart writes from its own values: refused in `settings` maps. */}}
{{- define "tenant-platform.derivedSettings" -}}
port temporal.address temporal.namespace temporal.task-queue s3.endpoint s3.bucket s3.region s3.force-path-style metrics.port dispatcher.enabled
{{- end -}}

{{/* Fails the render on a secret or chart-derived setting in a settings map (dict "where" "settings" "map" ...). */}}
{{- define "tenant-platform.checkSettings" -}}
{{- $secret := splitList " " (include "tenant-platform.secretSettings" .) -}}
{{- $derived := splitList " " (include "tenant-platform.derivedSettings" .) -}}
{{- range $name, $value := .map -}}
{{- if has $name $secret -}}
{{- fail (printf "%s.%s is a secret setting: reference it from an existing Secret under `secrets`, never as a value" $.where $name) -}}
{{- end -}}
{{- if has $name $derived -}}
{{- fail (printf "%s.%s is set by the chart from its own values (temporal, s3, metrics, api.port, dispatcher.mode)" $.where $name) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Secret setting references, as container env (dict "root" $ "role" "api"). */}}
{{- define "tenant-platform.secretEnv" -}}
{{- $allowed := splitList " " (include "tenant-platform.secretSettings" .root) -}}
{{- if eq .role "dispatcher" -}}
{{- $allowed = splitList " " (include "tenant-platform.dispatcherSecrets" .root) -}}
{{- end -}}
{{- range $name, $ref := .root.Values.secrets }}
{{- if has $name $allowed }}
- name: {{ include "tenant-platform.envName" $name }}
  valueFrom:
    secretKeyRef:
      name: {{ $ref.name | quote }}
      key: {{ $ref.key | quote }}
      {{- if $ref.optional }}
      optional: true
      {{- end }}
{{- end }}
{{- end }}
{{- end -}}

{{/* Role-only settings, as container env; they override the shared ConfigMap's. */}}
{{- define "tenant-platform.roleEnv" -}}
{{- $values := index .root.Values .role -}}
{{- include "tenant-platform.checkSettings" (dict "where" (printf "%s.settings" .role) "map" $values.settings) -}}
{{- range $name, $value := $values.settings }}
- name: {{ include "tenant-platform.envName" $name }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- end -}}
