import { trace } from '@opentelemetry/api';
import pino, { type DestinationStream, type Logger } from 'pino';
import { errorWithoutValues } from '../db/errors';
import type { Settings } from '../domain/settings';

/** Errors are logged with their statement and SQLSTATE, never the values a query carried. */
const serializeError = (err: unknown) => pino.stdSerializers.err(errorWithoutValues(err) as Error);

/**
 * JSON logs; anything that could hold a secret is redacted by path before it is written, and
 * errors (`err`, `error`) lose the query values they carry (personal data). `destination` lets
 * tests capture exactly what production would write.
 */
export function createLogger(
  settings: Pick<Settings, 'log.level'>,
  name = 'platform',
  destination?: DestinationStream,
): Logger {
  const options = {
    name,
    level: settings['log.level'],
    serializers: { err: serializeError, error: serializeError },
    mixin: traceFields,
    redact: {
      paths: [
        'apiKey',
        '*.apiKey',
        'secret',
        '*.secret',
        'password',
        '*.password',
        'token',
        '*.token',
        'headers.authorization',
        'headers["x-internal-key"]',
        'headers["x-voice-secret"]',
        '*.headers.authorization',
        '*.headers["x-internal-key"]',
        '*.headers["x-voice-secret"]',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** The active span's ids on every line written inside a traced request, workflow start or activity. */
function traceFields() {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}
