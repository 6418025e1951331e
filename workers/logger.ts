import pino, { type Logger } from 'pino';
import type { Settings } from './settings';

/** JSON logs; anything that could hold a secret is redacted by path before it is written. */
export function createLogger(settings: Pick<Settings, 'log.level'>, name = 'platform'): Logger {
  return pino({
    name,
    level: settings['log.level'],
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
  });
}
