import { z } from 'zod';

/**
 * Every setting of the service, in one table. A setting named `a.b-c` is read from the
 * environment variable `A_B_C`. The README's settings table is checked against this list
 * by a unit test, so the two cannot drift apart.
 */
export interface SettingDef<T> {
  readonly schema: z.ZodType<T>;
  /** Default as the raw string an operator would write; undefined means "unset". */
  readonly default: string | undefined;
  readonly description: string;
  /** Never logged or echoed, even in start-up errors. */
  readonly secret?: boolean;
}

const def = <T>(
  schema: z.ZodType<T>,
  dflt: string | undefined,
  description: string,
  secret = false,
): SettingDef<T> => ({ schema, default: dflt, description, secret });

const bool = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no']))
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const url = z.string().trim().url();
const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.string().url().optional());
const text = z.string();
const optionalText = z
  .string()
  .transform((v) => (v.trim() === '' ? undefined : v))
  .optional();
const list = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0),
);
const masterKey = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(
    z
      .string()
      .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64-encoded')
      .transform((v) => Buffer.from(v, 'base64'))
      .optional(),
  );

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
  'temporal.address': def(
    optionalText,
    '',
    'Temporal frontend host:port. Unset: `npm start` runs the Temporal CLI dev server.',
  ),
  'temporal.namespace': def(text, 'default', 'Temporal namespace.'),
  'temporal.task-queue': def(text, 'platform', 'Task queue of the platform worker.'),
  'temporal.ui-port': def(int(1, 65535), '8233', 'Web UI port of the embedded Temporal dev server.'),
  's3.endpoint': def(optionalUrl, '', 'S3 endpoint URL. Unset: `npm start` runs SeaweedFS under data-dir.'),
  's3.region': def(text, 'us-east-1', 'S3 region.'),
  's3.bucket': def(text, 'platform-documents', 'Bucket for documents (created with versioning and object lock).'),
  's3.access-key-id': def(optionalText, '', 'S3 access key id (embedded SeaweedFS supplies its own).', true),
  's3.secret-access-key': def(optionalText, '', 'S3 secret access key.', true),
  's3.force-path-style': def(bool, 'true', 'Path-style bucket addressing (needed by SeaweedFS and MinIO).'),
  'internal.key': def(
    optionalText,
    '',
    'Shared secret for `/api/internal/**` (header `X-Internal-Key`). Blank rejects every internal call.',
    true,
  ),
  'secrets.master-key': def(
    masterKey,
    '',
    'AES-256-GCM master key (32 bytes, base64) for secrets at rest. Unset: storing a secret answers 503.',
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
    int(0, 60_000),
    '0',
    'How long one API node may cache a caller’s membership and grants (0: ask PostgreSQL on every request).',
  ),
  'dispatcher.enabled': def(bool, 'true', 'Run the outbox dispatcher in this worker process.'),
  'dispatcher.capabilities': def(
    list,
    'PHONE,FORMS,SIGNATURES,DOCUMENTS',
    'Capabilities whose outbox rows this node dispatches (per-capability switch).',
  ),
  'dispatcher.poll-ms': def(int(50, 600_000), '2000', 'Polling fallback when no NOTIFY arrives.'),
  'dispatcher.batch-size': def(int(1, 1000), '50', 'Rows claimed per transaction.'),
  'dispatcher.max-attempts': def(int(1, 1000), '10', 'Start attempts before a row becomes FAILED.'),
  'dispatcher.backoff-ms': def(int(1, 3_600_000), '1000', 'First retry delay; doubles per attempt (capped at 10 min).'),
  'forms.outbox-poll-ms': def(int(50, 600_000), '2000', 'Form submission outbox poll (spec limit).'),
} as const;

export type SettingName = keyof typeof settingDefs;
export type Settings = { [K in SettingName]: z.output<(typeof settingDefs)[K]['schema']> };

/** `docstore.max-bytes` → `DOCSTORE_MAX_BYTES`. */
export const envName = (setting: string): string => setting.toUpperCase().replace(/[.-]/g, '_');
