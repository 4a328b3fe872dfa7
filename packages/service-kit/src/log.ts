import { pino, type Logger } from 'pino';
export type { Logger };

/** JSON logs on stderr; secrets are redacted wherever they might appear. */
export function createLogger(service: string, level = 'info'): Logger {
  return pino(
    {
      name: service,
      level,
      redact: {
        paths: ['*.secret', '*.webhookSecret', '*.secretEnc', 'secret', 'webhookSecret', 'headers.authorization', 'req.headers.authorization'],
        censor: '[redacted]',
      },
    },
    pino.destination(2),
  );
}
