// How `npm start` and `npm test` tell a failure to start: what went wrong on the first line,
// `  Fix: …` on the next; a stack trace only when asked for (LOG_LEVEL=debug).

/** A refusal we foresaw: its message is what went wrong, then a line with the fix. */
export class StartupError extends Error {}

/** The text for any failure: a StartupError's message; anything else, its message and how to learn more. */
export function failureText(err: unknown, command: string): string {
  if (err instanceof StartupError) return err.message;
  const message = err instanceof Error ? err.message : String(err);
  if (process.env.LOG_LEVEL === 'debug' && err instanceof Error && err.stack) return `Unexpected failure: ${err.stack}`;
  return (
    `Unexpected failure: ${message.trim().split('\n')[0]}\n` +
    `  Fix: look for an earlier error above; LOG_LEVEL=debug ${command} shows where this one happened (a bug: please report it).`
  );
}
