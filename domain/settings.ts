import { z } from 'zod';
import { authSettingDefs } from './auth-settings';
import { phoneSettingDefs } from './phone/settings';
import { addressRangeList, bool, def, int, list, masterKey, optionalText, optionalUrl, text, url, urlList } from './setting-builders';
import { webhookSettingDefs } from './webhooks/settings';

/**
 * Every setting of the service, in one table. A setting named `a.b-c` is read from the
 * environment variable `A_B_C`. The README's settings table is checked against this list
 * by a unit test, so the two cannot drift apart.
 */
export const settingDefs = {
  port: def(int(0, 65535), '3000', 'HTTP port of the API (0 picks a free port).'),
  'data-dir': def(text, './.data', 'Where `npm start` keeps embedded PostgreSQL, Temporal and S3 data.'),
  'log.level': def(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    'info',
    'pino log level.',
  ),
  'database.url': def(
    optionalUrl,
    '',
    'PostgreSQL URL (env `DATABASE_URL`). Unset: `npm start` runs embedded PostgreSQL under data-dir.',
    true,
  ),
  'database.pool-size': def(int(1, 200), '10', 'Connections per process.'),
  'database.connect-timeout-ms': def(
    int(100, 120_000),
    '5000',
    'How long opening a PostgreSQL connection may take before the query waiting for it fails (an API request then answers 503 `database-unavailable`). Bounds a request while the server is unreachable.',
  ),
  'temporal.address': def(
    optionalText,
    '',
    'Temporal frontend host:port. Unset: `npm start` runs the Temporal CLI dev server.',
  ),
  'temporal.namespace': def(text, 'default', 'Temporal namespace.'),
  'temporal.task-queue': def(text, 'platform', 'Task queue of the platform worker.'),
  'temporal.deployment-name': def(
    z.string().trim().min(1).regex(/^[^.]+$/, 'a Worker Deployment name cannot contain "."'),
    'platform',
    'Worker Deployment the worker belongs to (Worker Versioning, docs/releases.md).',
  ),
  'temporal.build-id': def(
    optionalText,
    '',
    'Build ID of this worker within its deployment. Unset: the package version plus the git commit when known (env `GIT_COMMIT`, else `git rev-parse --short HEAD`), e.g. `0.1.0-d80dd75`.',
  ),
  'temporal.promote-on-start': def(
    z.enum(['always', 'if-none', 'never']),
    'if-none',
    'Whether a starting worker makes its build the deployment\'s current version: `if-none` only when the deployment has none yet (a first install), `always` (`npm start` and tests: the last worker started wins), `never` (promotion only by `npm run release:promote`).',
  ),
  'temporal.ui-port': def(int(1, 65535), '8233', 'Web UI port of the embedded Temporal dev server.'),
  'temporal.ui-url': def(
    optionalUrl,
    '',
    "Base URL of the Temporal Web UI the console's Workflows page links operators to (filtered by the tenant's `TenantId` search attribute). `npm start` sets it to the embedded dev server's UI; unset: the link is hidden.",
  ),
  'console.dev-sign-in': def(
    bool,
    'false',
    "Console pages offer the development gateway's sign-in (`/dev/sign-in`) and sign-out (`POST /dev/sign-out`). `npm start` turns it on when it runs that gateway; leave it off in production, where an identity-aware proxy signs people in (docs/identity.md).",
  ),
  's3.endpoint': def(optionalUrl, '', 'S3 endpoint URL. Unset: `npm start` runs SeaweedFS under data-dir.'),
  's3.region': def(text, 'us-east-1', 'S3 region.'),
  's3.bucket': def(text, 'platform-documents', 'Bucket for documents (created with versioning and object lock).'),
  's3.access-key-id': def(optionalText, '', 'S3 access key id (embedded SeaweedFS supplies its own).', true),
  's3.secret-access-key': def(optionalText, '', 'S3 secret access key.', true),
  's3.force-path-style': def(bool, 'true', 'Path-style bucket addressing (needed by SeaweedFS and MinIO).'),
  's3.request-checksums': def(
    z.enum(['when-required', 'when-supported']),
    'when-required',
    'Checksums on S3 requests only where an operation requires one (`when-required`: S3-compatible stores without aws-chunked support work, uploads stream unframed; TLS guards transit and each document keeps its own SHA-256), or CRC32 on every upload that S3 verifies (`when-supported`, the AWS SDK default: streamed parts go aws-chunked with a trailing checksum; ~6% slower uploads on the bench).',
  ),
  'internal.key': def(
    optionalText,
    '',
    'Shared secret for `/api/internal/**` and `/internal/render/**` (header `X-Internal-Key`). Blank rejects every internal call (`npm start` alone generates one into `<data-dir>/dev-secrets.json`).',
    true,
  ),
  'secrets.master-key': def(
    masterKey,
    '',
    'AES-256-GCM master key (32 bytes, base64) for secrets at rest. Unset: storing a secret answers 503 (`npm start` alone generates one into `<data-dir>/dev-secrets.json`).',
    true,
  ),
  'access.operator-groups': def(
    list,
    'platform-operators',
    'Comma-separated global groups whose members are platform operators.',
  ),
  'access.operators': def(list, '', 'Comma-separated user ids bootstrapped into the first operator group at start-up.'),
  'access.invitation-ttl-hours': def(int(1, 24 * 90), '168', 'Lifetime of an invitation token.'),
  'access.cache-ttl-ms': def(
    int(0, 600_000),
    '30000',
    'Upper bound on how long an API node trusts a cached caller snapshot if an invalidation notice were lost (0 disables the cache).',
  ),
  'access.node-heartbeat-ms': def(
    int(50, 60_000),
    '500',
    'How often an API node with an access cache pings itself through its LISTEN connection and refreshes its row in access_nodes; must be under half of access.invalidation-wait-ms (checked at start).',
  ),
  'access.invalidation-wait-ms': def(
    int(200, 120_000),
    '2000',
    'Longest an access write waits for every live API node to acknowledge its change before answering; a node whose heartbeat has not come back within this long stops serving from its cache (reads PostgreSQL) until it does.',
  ),
  'access.request-ttl-days': def(
    int(1, 3650),
    '30',
    'Lifetime of a PENDING access request: older ones are EXPIRED (by every request operation as it reads them, and by the expiry sweep), which frees the one-open-request rule.',
  ),
  'access.request-expiry-sweep.enabled': def(
    bool,
    'false',
    'Create (or resume) the Temporal Schedule of the accessRequestExpirySweep workflow at worker start-up (off by default, like every platform schedule). Without it a request past its lifetime is still EXPIRED as soon as any request operation of its tenant reads it; only its row waits until then.',
  ),
  'access.request-expiry-sweep.cron': def(text, '17 * * * *', 'Cron expression (UTC) of the access request expiry sweep.'),
  'access.request-expiry-sweep.batch-size': def(int(1, 10_000), '500', 'Access requests moved to EXPIRED per sweep transaction.'),
  'dispatcher.enabled': def(bool, 'true', 'Run the outbox dispatcher in this worker process.'),
  'dispatcher.capabilities': def(
    list,
    'PHONE,FORMS,SIGNATURES,DOCUMENTS,WEBHOOKS,SLA,ACCESS',
    'Capabilities whose outbox rows this node dispatches (per-capability switch).',
  ),
  'dispatcher.poll-ms': def(int(50, 600_000), '2000', 'Polling fallback when no NOTIFY arrives.'),
  'dispatcher.batch-size': def(int(1, 1000), '50', 'Rows claimed per transaction.'),
  'dispatcher.parallel-batches': def(
    int(1, 64),
    '4',
    'Claimed batches delivered side by side per dispatcher (each its own transaction and pool connection; claims skip rows another batch holds, and a workflow\'s rows stay in order).',
  ),
  'dispatcher.max-attempts': def(int(1, 1000), '10', 'Start attempts before a row becomes FAILED.'),
  'dispatcher.backoff-ms': def(int(1, 3_600_000), '1000', 'First retry delay; doubles per attempt (capped at 10 min).'),
  'supervisor.restart-backoff-ms': def(
    int(10, 600_000),
    '1000',
    '`npm start`: delay before a crashed role (API, worker, dispatcher) is started again; doubles per crash in a row.',
  ),
  'supervisor.restart-max-backoff-ms': def(
    int(10, 3_600_000),
    '30000',
    '`npm start`: the longest restart delay; a role that ran this long before crashing starts again at the first delay.',
  ),
  // Phone (voice provider)
  ...phoneSettingDefs,
  // Documents (docstore)
  'docstore.max-bytes': def(int(0, 5 * 1024 ** 3), String(25 * 1024 * 1024), 'Upload size cap in bytes, counted on the stream (spec limit); above it 413.'),
  'docstore.registry-url': def(
    optionalUrl,
    '',
    'Base URL of a remote document registry (its `/api/internal/documents` routes). Unset: the proxy calls the registry in-process.',
  ),
  'docstore.scan': def(z.enum(['off', 'clamav']), 'off', 'Malware scan at finalize: `off` (start-up warning) or `clamav` (clamd INSTREAM over TCP).'),
  'docstore.clamav-host': def(text, '127.0.0.1', 'clamd host when docstore.scan=clamav.'),
  'docstore.clamav-port': def(int(1, 65535), '3310', 'clamd TCP port when docstore.scan=clamav.'),
  // At most 9 minutes: a scan must end inside its activity's 10-minute start-to-close (workflows/document-scan.ts).
  'docstore.clamav-timeout-ms': def(int(100, 540_000), '60000', 'Deadline of one clamd scan (at most 540000: inside the scan activity\'s 10-minute limit); a time-out keeps the document PENDING for the durable retry.'),
  'docstore.scan-retry-initial-ms': def(int(10, 3_600_000), '10000', 'First retry delay of the durable documentScan workflow; doubles per attempt.'),
  'docstore.scan-retry-max-ms': def(int(10, 86_400_000), '600000', 'Longest delay between documentScan retries (retries never stop while PENDING).'),
  'docstore.retention-days.forms': def(int(0, 36_500), '365', 'Object-lock retention (GOVERNANCE) of FORMS documents in days; 0: no retention.'),
  'docstore.retention-days.signatures': def(int(0, 36_500), '3650', 'Object-lock retention (COMPLIANCE) of SIGNATURES documents in days; 0: no retention.'),
  'docstore.retention-days.email': def(int(0, 36_500), '365', 'Object-lock retention (GOVERNANCE) of EMAIL documents in days; 0: no retention.'),
  'docstore.upload-concurrency': def(
    int(1, 1000),
    '4',
    'Uploads streaming to S3 at once per API node (a streamed one holds a few hundred KiB, a chunked one up to ~20 MiB of part buffers); further uploads wait their turn.',
  ),
  'docstore.sse': def(z.enum(['none', 'AES256']), 'none', 'Server-side encryption of stored documents: `none` or `AES256` (SSE-S3).'),
  'docstore.retention-purge.enabled': def(bool, 'false', 'Create (or resume) the Temporal Schedule of the retentionPurge workflow at worker start-up.'),
  'docstore.retention-purge.dry-run': def(bool, 'true', 'retentionPurge only reports the documents it would mark DELETED.'),
  'docstore.retention-purge.cron': def(text, '30 3 * * *', 'Cron expression (UTC) of the retentionPurge schedule.'),
  'docstore.retention-purge.batch-size': def(int(1, 10_000), '500', 'Rows marked DELETED per purge transaction.'),
  // Forms
  'forms.lock-ttl-minutes': def(
    int(1, 10_080),
    '30',
    "Age after which a form definition's edit lock is stale: another user's checkout takes it over (a fresh lock answers 409 `definition-locked`).",
  ),
  // Signatures
  'signatures.lock-ttl-minutes': def(
    int(1, 10_080),
    '30',
    "Age after which a signature definition's edit lock is stale: another user's checkout takes it over (a fresh lock answers 409 `definition-locked`).",
  ),
  'signatures.source-pdf-max-bytes': def(
    int(1024, 256 * 1024 * 1024),
    String(20 * 1024 * 1024),
    'Size cap of a signing definition\'s source PDF in bytes (it is read whole to check its pages); above it 413 `document-too-large`. `docstore.max-bytes` applies as well.',
  ),
  // Signatures: the seal (docs/signatures.md "Seal")
  'signatures.trust-mode': def(
    z.enum(['local', 'qtsp']),
    'local',
    '`local`: seal with the organisation\'s key (`signatures.pkcs12-base64`). `qtsp` (a qualified trust service provider) is not built: every seal fails with 501 `trust-mode-not-available`.',
  ),
  'signatures.pkcs12-base64': def(
    optionalText,
    '',
    'The organisation\'s sealing key and certificate chain as a base64 PKCS#12 (OpenSSL 3 defaults or `-legacy`), loaded on the first seal. Unset: every seal fails (503 `signing-key-unreadable`, retried), unless `signatures.dev-chain` is on.',
    true,
  ),
  'signatures.pkcs12-password': def(text, '', 'Password of `signatures.pkcs12-base64`.', true),
  'signatures.dev-chain': def(
    bool,
    'false',
    'With `signatures.pkcs12-base64` unset, seal with a development chain generated once under `<data-dir>/signing-dev/` (logged as not for production; validators will not trust it). `npm start` turns it on; production entry points keep failing closed.',
  ),
  'signatures.tsa-url': def(url, 'http://timestamp.digicert.com', 'RFC 3161 timestamp authority asked for the token in every seal (no token: the seal fails, never goes out untimestamped).'),
  'signatures.tsa-fallback-urls': def(urlList, '', 'Comma-separated further RFC 3161 authorities, tried in order when `signatures.tsa-url` fails.'),
  'signatures.tsa-timeout-ms': def(int(100, 120_000), '10000', 'Bound on one timestamp authority\'s whole exchange; past it the next authority is tried.'),
  'signatures.reminder-interval-hours': def(
    z.coerce.number().min(0).max(8760),
    '72',
    'Hours between reminder e-mails to armed recipients who have not signed (a durable timer in the ceremony; fractions allowed); 0: no reminders.',
  ),
  'signatures.reseal-backoff-minutes': def(
    int(1, 10_080),
    '15',
    'While a completed campaign\'s seal is FAILED the ceremony tries again after this long (a durable timer; `POST .../seal` tries at once).',
  ),
  'signatures.signature-png-max-bytes': def(int(1024, 16 * 1024 * 1024), String(512 * 1024), 'Cap of a decoded signature or initials PNG; above it 400 `signing-input-invalid`.'),
  'signatures.copy-link-days': def(int(1, 3650), '30', 'Days the download link of the signed PDF, mailed to each signer and to the sender when a campaign is sealed, keeps working; after it, the same 404 as a closed signing link.'),
  // Submission PDF (headless Chromium, one long-lived browser per API node)
  'render.chromium-path': def(text, '/usr/bin/chromium', "Chromium executable that prints submission PDFs (Debian's `chromium` package; never a downloaded browser)."),
  'render.timeout-ms': def(int(1_000, 600_000), '30000', 'Deadline of one PDF render (content, ready flag and print); past it the page is closed and the call answers 503 `render-timed-out`.'),
  'render.concurrency': def(int(1, 16), '1', 'PDF renders running at once per API node.'),
  'render.queue-size': def(
    int(0, 1_000),
    '8',
    'Renders waiting for a free slot per API node; a render arriving when the queue is full answers 503 `render-queue-full` with Retry-After.',
  ),
  'forms.embed-key': def(
    optionalText,
    undefined,
    'HMAC-SHA256 key that signs form embed tokens (a long random string). Unset: the embed-token routes answer 503 `embed-key-missing` and every public embed token is refused (404) (`npm start` alone generates one into `<data-dir>/dev-secrets.json`).',
    true,
  ),
  'forms.rate-limit.per-ip-per-minute': def(int(1, 1_000_000), '20', 'Public embed submissions accepted per client address per minute (spec rule 1); above it 429 `rate-limited` with Retry-After.'),
  'forms.rate-limit.per-token-per-minute': def(int(1, 1_000_000), '600', 'Public embed submissions accepted per embed token per minute (spec rule 1); above it 429 `rate-limited` with Retry-After.'),
  'forms.max-submission-bytes': def(int(1024, 16 * 1024 * 1024), '262144', 'Bound of a public embed submission body in bytes, counted on the stream (spec rule 2); above it 413 `payload-too-large`.'),
  'forms.event-rail.poll-ms': def(int(50, 600_000), '2000', 'Polling fallback of the form event correlator when no NOTIFY arrives (it runs beside the outbox dispatcher).'),
  'forms.event-rail.batch-size': def(int(1, 1000), '50', 'Form events claimed per correlator transaction.'),
  'forms.event-rail.max-attempts': def(
    int(1, 1000),
    '5',
    'Attempts to enqueue the deliveries of one form event before it becomes FAILED (docs/forms.md "Event rail").',
  ),
  'forms.event-rail.backoff-ms': def(int(1, 3_600_000), '1000', 'First retry delay of a form event whose deliveries could not be enqueued; doubles per attempt (capped at 10 min).'),
  'forms.submission-pdf': def(bool, 'true', 'The formIntake process renders and stores each submission\'s PDF (FORM_SUBMISSION_PDF) in the worker. Off: no PDF is made (the forms bench turns it off).'),
  'forms.embed-attachments-per-session': def(
    int(1, 1_000),
    '10',
    'Attachments one embed session (its browser-minted processRef) may hold at a time, counted atomically on the session row (any API node); the next upload answers 409 `embed-attachment-cap-reached`. Deleted ones do not count.',
  ),
  'forms.embed-attachment-max-bytes': def(
    int(1, 5 * 1024 ** 3),
    String(10 * 1024 * 1024),
    'Size cap of one embed attachment in bytes, counted on the stream (the lower of this and `docstore.max-bytes` applies); above it 413 `document-too-large`.',
  ),
  'http.max-body-bytes': def(
    int(1024, 64 * 1024 * 1024),
    String(1024 * 1024),
    'Bound of every request body in bytes, counted on the stream with or without Content-Length; above it 413 `payload-too-large` before parsing. Routes with their own bound (uploads, render, embed submit, phone webhook) keep theirs.',
  ),
  // Outbound forms: send, one-time-code-gated respond, expiry sweep
  'forms.outbound.default-expiry-days': def(int(1, 3650), '14', 'Lifetime of a sent outbound form when the send names no `expiresAt`; past it the instance is EXPIRED (the recipient routes answer 404 at once, the sweep moves the state).'),
  'forms.otp.ttl-minutes': def(int(1, 1440), '10', 'Lifetime of a recipient one-time code.'),
  'forms.otp.max-attempts': def(int(1, 100), '5', 'Wrong codes a recipient may try; after that the code is dead and a new one must be requested.'),
  'forms.otp.resend-cooldown-seconds': def(int(0, 86_400), '60', 'Within this time of the last code request for a link, another sends no mail: a form recipient is answered 429 with Retry-After (for any token, so existence is not told); a signer still gets the same 202.'),
  'forms.recipient.access-ttl-minutes': def(int(1, 1440), '60', 'Lifetime of the access token a verified code gives (fixed, not sliding); afterwards the recipient verifies a new code.'),
  'forms.rate-limit.attachments-per-ip-per-minute': def(
    int(1, 1_000_000),
    '30',
    'Embed attachment uploads accepted per client address per minute (a browser mints its own session, so the per-session cap alone bounds nothing); above it 429 `rate-limited` with Retry-After.',
  ),
  'forms.rate-limit.attachments-per-token-per-minute': def(
    int(1, 1_000_000),
    '600',
    'Embed attachment uploads accepted per embed token per minute; above it 429 `rate-limited` with Retry-After.',
  ),
  'forms.rate-limit.recipient-per-ip-per-minute': def(int(1, 1_000_000), '30', 'Recipient code requests and verifications accepted per client address per minute; above it 429 `rate-limited` with Retry-After.'),
  'forms.rate-limit.recipient-per-token-per-minute': def(int(1, 1_000_000), '20', 'Recipient code requests and verifications accepted per instance token per minute; above it 429 `rate-limited` with Retry-After.'),
  'forms.expiry-sweep.enabled': def(bool, 'false', 'Create (or resume) the Temporal Schedule of the formExpirySweep workflow at worker start-up (off by default, like every platform schedule: turn it on in one deployment). Without it an instance past expiresAt is still refused to its recipient; only its state stays open.'),
  'forms.expiry-sweep.cron': def(text, '*/5 * * * *', 'Cron expression (UTC) of the form expiry sweep.'),
  'forms.expiry-sweep.batch-size': def(int(1, 10_000), '500', 'Instances moved to EXPIRED per sweep transaction.'),
  // Mail (SMTP through nodemailer)
  'mail.smtp-url': def(
    optionalUrl,
    '',
    'SMTP URL of the outgoing mail server (`smtp://host:port`, `smtps://user:pass@host`). Unset: `npm start` runs a local mail catcher and prints the page where sent messages can be read; other entry points record every delivery as FAILED.',
    true,
  ),
  'mail.from': def(text, 'Forms <no-reply@localhost>', 'Sender address of platform e-mails.'),
  'mail.from-name': def(optionalText, '', 'Sender name of platform e-mails: the From display name (with the address of `mail.from`) and the "Sent by" line of every mail. Empty: the display name in `mail.from`, else "the platform".'),
  'mail.timeout-ms': def(int(100, 120_000), '10000', 'Bound on connecting to the SMTP server and on each of its answers; a slower server fails the delivery (recorded, never a failed request).'),
  'public.base-url': def(url, 'http://localhost:3000', 'Public base URL of the hosted pages (embed links are `<base>/embed/<token>`, recipient links of outbound forms `<base>/respond/<token>`).'),
  'http.trusted-proxies': def(
    addressRangeList,
    '',
    'Comma-separated addresses and CIDR blocks (`10.0.0.0/8`, `2001:db8::/32`, `203.0.113.7`) of reverse proxies whose `X-Forwarded-For` and geo headers are believed; the client address is then the first untrusted hop from the right. Used by the rate limits and the signing audit. Empty: the socket address is the client.',
  ),
  'http.geo-header': def(
    optionalText,
    '',
    'Header carrying the client country (ISO 3166-1 alpha-2) set by your gateway, believed only from a trusted proxy. Unset: `CF-IPCountry`, `X-Vercel-IP-Country` and `CloudFront-Viewer-Country` are read.',
  ),
  'http.geo-database': def(
    bool,
    'true',
    'Look the client country up in the offline GeoLite2 country database shipped with the `geoip-country` package (loaded on first use, about 8 MB) when no gateway header gives it. Off: geo comes from gateway headers only.',
  ),
  // Business calendars and SLA (and the API clients that call them with HTTP Basic)
  'calendar.is-open-max-age-seconds': def(
    int(0, 86_400),
    '900',
    'Cap on the Cache-Control max-age / Expires of an is-open answer, which is otherwise cacheable until its nextChangeAt (0: no-cache).',
  ),
  'calendar.compiled-cache-size': def(
    int(0, 100_000),
    '256',
    'Compiled calendars (hours, holidays and an open-time index of at most 1 MiB each) a process keeps for SLA due dates, availability and is-open, least recently used dropped first. Every request still reads the calendar\'s rules version, so a change is seen at once on every node (0: load and compile the calendar on every request).',
  ),
  'access.api-client-scrypt-cost': def(
    int(10, 20),
    '14',
    'log2 of the scrypt N of new API client secret hashes (r=8, p=1); each hash records its own cost, so raising it keeps older secrets valid.',
  ),
  'access.api-client-verify-cache-ttl-ms': def(
    int(0, 86_400_000),
    '300000',
    'How long a node remembers a verified Basic credential (as an HMAC under a per-process key) so repeated requests skip scrypt; revocation applies on the next request regardless (0: scrypt every request).',
  ),
  'metrics.port': def(int(0, 65535), '9464', 'Port of this process\'s own Prometheus listener (`GET /metrics`), never the API port; 0 turns metrics off.'),
  'metrics.host': def(text, '0.0.0.0', 'Address the metrics listener binds to (all interfaces, so a Prometheus beside the containers can scrape; set metrics.token when that network is not private).'),
  'metrics.token': def(optionalText, '', 'When set, `GET /metrics` needs `Authorization: Bearer <token>`; without it 401.', true),
  'otel.exporter-otlp-endpoint': def(
    optionalUrl,
    '',
    'OpenTelemetry OTLP/HTTP endpoint (the standard `OTEL_EXPORTER_OTLP_ENDPOINT`; spans go to `<endpoint>/v1/traces`). Unset: tracing is off. The exporter also honours the other standard `OTEL_EXPORTER_OTLP_*` variables.',
  ),
  'otel.service-name': def(optionalText, '', 'The standard `OTEL_SERVICE_NAME` of exported spans; unset: `platform-api` or `platform-worker` after the process role.'),
  // Identity at the edge (docs/identity.md)
  ...authSettingDefs,
  // Outbound webhooks (docs/webhooks.md)
  ...webhookSettingDefs,
} as const;

export type SettingName = keyof typeof settingDefs;
export type Settings = { [K in SettingName]: z.output<(typeof settingDefs)[K]['schema']> };

/** `docstore.max-bytes` → `DOCSTORE_MAX_BYTES`. */
export const envName = (setting: string): string => setting.toUpperCase().replace(/[.-]/g, '_');
