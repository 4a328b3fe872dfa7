import { pino, type Logger } from 'pino';
export type { Logger };

/** JSON logs on stderr; secrets are redacted wherever they might appear. */
export function createLogger(service: string): Logger {
  return pino({
    name: service,
    level: process.env.LOG_LEVEL ?? 'info',
    redact: { paths: ['*.secret', '*.webhookSecret', '*.secretEnc', 'secret', 'webhookSecret', 'headers.authorization', 'req.headers.authorization'], censor: '[redacted]' },
  }, pino.destination(2));
}
