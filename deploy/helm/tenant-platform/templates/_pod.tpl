{{/*
The pod template every role shares (dict "root" $ "role" "api" "entry" "workers/api.ts"
"grace" 45 "ports" <list of container ports> "env" <role env yaml> "shm" true "preStop" 5).
The entry point runs under `node --import tsx` as PID 1: its own SIGTERM handler
(workers/shutdown.ts) stops it in order, and no npm or tsx parent process sits between the
kubelet's signal and the process.
*/}}
{{- define "tenant-platform.podTemplate" -}}
{{- $root := .root -}}
{{- $values := index $root.Values .role -}}
metadata:
  labels:
    {{- include "tenant-platform.selectorLabels" . | nindent 4 }}
    {{- with $root.Values.podLabels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  annotations:
    # Pods roll when the shared settings change.
    checksum/config: {{ include (print $root.Template.BasePath "/configmap.yaml") $root | sha256sum }}
    {{- if $root.Values.metrics.scrapeAnnotations }}
    prometheus.io/scrape: "true"
    prometheus.io/port: {{ $root.Values.metrics.port | quote }}
    prometheus.io/path: /metrics
    {{- end }}
    {{- with $root.Values.podAnnotations }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  serviceAccountName: {{ include "tenant-platform.serviceAccountName" $root }}
  # The platform never calls the Kubernetes API.
  automountServiceAccountToken: false
  terminationGracePeriodSeconds: {{ .grace }}
  {{- with $root.Values.imagePullSecrets }}
  imagePullSecrets:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  securityContext:
    {{- toYaml $root.Values.podSecurityContext | nindent 4 }}
  containers:
    - name: {{ .role }}
      image: {{ include "tenant-platform.image" $root | quote }}
      imagePullPolicy: {{ $root.Values.image.pullPolicy }}
      command: ["node", "--import", "tsx", {{ .entry | quote }}]
      securityContext:
        {{- toYaml $root.Values.containerSecurityContext | nindent 8 }}
      ports:
        {{- with .ports }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
        - name: metrics
          containerPort: {{ $root.Values.metrics.port }}
          protocol: TCP
      envFrom:
        - configMapRef:
            name: {{ include "tenant-platform.fullname" $root }}
      env:
        - name: HOME
          value: /tmp
        - name: TMPDIR
          value: /tmp
        {{- range $part := list .env (include "tenant-platform.roleEnv" .) (include "tenant-platform.secretEnv" .) }}
        {{- with trim $part }}
        {{- . | nindent 8 }}
        {{- end }}
        {{- end }}
      startupProbe:
        {{- toYaml $values.probes.startup | nindent 8 }}
      readinessProbe:
        {{- toYaml $values.probes.readiness | nindent 8 }}
      livenessProbe:
        {{- toYaml $values.probes.liveness | nindent 8 }}
      {{- if .preStop }}
      lifecycle:
        preStop:
          exec:
            command: ["sleep", {{ .preStop | quote }}]
      {{- end }}
      resources:
        {{- toYaml $values.resources | nindent 8 }}
      volumeMounts:
        - name: tmp
          mountPath: /tmp
        {{- if .shm }}
        - name: shm
          mountPath: /dev/shm
        {{- end }}
  volumes:
    - name: tmp
      emptyDir:
        sizeLimit: {{ $root.Values.tmpSizeLimit }}
    {{- if .shm }}
    # Chromium's shared memory (the runtime's default /dev/shm is 64 MiB).
    - name: shm
      emptyDir:
        medium: Memory
        sizeLimit: {{ $values.shmSizeLimit }}
    {{- end }}
  {{- if $root.Values.spreadOverNodes }}
  topologySpreadConstraints:
    - maxSkew: 1
      topologyKey: kubernetes.io/hostname
      whenUnsatisfiable: ScheduleAnyway
      labelSelector:
        matchLabels:
          {{- include "tenant-platform.selectorLabels" . | nindent 10 }}
  {{- end }}
  {{- with $root.Values.nodeSelector }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $root.Values.affinity }}
  affinity:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $root.Values.tolerations }}
  tolerations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end -}}
