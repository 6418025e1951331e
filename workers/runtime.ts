import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { Client, Connection } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import type { Logger } from 'pino';
import { createDatabase, type Database } from '../db/client';
import type { ReadinessCheck } from '../api/deps';
import type { Settings } from '../domain/settings';

export interface Endpoints {
  databaseUrl: string;
  temporalAddress: string;
  s3: { endpoint: string; accessKeyId: string; secretAccessKey: string };
}

export interface Runtime {
  database: Database;
  temporalConnection: Connection;
  temporal: Client;
  s3: S3Client;
  readiness: Record<string, ReadinessCheck>;
  close(): Promise<void>;
}

/** Settings with no embedded fallback: production entry points need every URL. */
export function endpointsFromSettings(settings: Settings): Endpoints {
  const missing: string[] = [];
  if (!settings['database.url']) missing.push('DATABASE_URL');
  if (!settings['temporal.address']) missing.push('TEMPORAL_ADDRESS');
  if (!settings['s3.endpoint']) missing.push('S3_ENDPOINT');
  if (missing.length) throw new Error(`Missing required settings: ${missing.join(', ')}`);
  return {
    databaseUrl: settings['database.url']!,
    temporalAddress: settings['temporal.address']!,
    s3: {
      endpoint: settings['s3.endpoint']!,
      accessKeyId: settings['s3.access-key-id'] ?? '',
      secretAccessKey: settings['s3.secret-access-key'] ?? '',
    },
  };
}

export function createS3Client(settings: Settings, s3: Endpoints['s3']) {
  return new S3Client({
    endpoint: s3.endpoint,
    region: settings['s3.region'],
    forcePathStyle: settings['s3.force-path-style'],
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    requestChecksumCalculation: settings['s3.request-checksums'] === 'when-supported' ? 'WHEN_SUPPORTED' : 'WHEN_REQUIRED',
  });
}

/** Connects to PostgreSQL, Temporal and S3 and builds the readiness probes over them. */
export async function connectRuntime(settings: Settings, endpoints: Endpoints, logger: Logger): Promise<Runtime> {
  const database = createDatabase(endpoints.databaseUrl, { max: settings['database.pool-size'], connectTimeoutMs: settings['database.connect-timeout-ms'] });
  const temporalConnection = await Connection.connect({ address: endpoints.temporalAddress });
  // Carries the caller's trace into the workflows it starts and signals (a no-op while tracing is off).
  const interceptors = { workflow: [new OpenTelemetryWorkflowClientInterceptor()] };
  const temporal = new Client({ connection: temporalConnection, namespace: settings['temporal.namespace'], interceptors });
  const s3 = createS3Client(settings, endpoints.s3);
  const readiness: Record<string, ReadinessCheck> = {
    postgres: async () => {
      await database.sql`select 1`;
    },
    temporal: async () => {
      await temporalConnection.workflowService.describeNamespace({ namespace: settings['temporal.namespace'] });
    },
    s3: async () => {
      await s3.send(new HeadBucketCommand({ Bucket: settings['s3.bucket'] }));
    },
  };
  logger.debug('runtime connected');
  return {
    database,
    temporalConnection,
    temporal,
    s3,
    readiness,
    async close() {
      s3.destroy();
      await temporalConnection.close().catch(() => {});
      await database.close();
    },
  };
}
