// Deterministic crash tests: a named point kills the process at once when the process was
// started with it armed (CRASH_AT, read with the rest of the configuration). Only tests arm
// crash points; in production this is a lookup in an empty set.

const armed = new Set<string>();

/** Arms the comma-separated points of CRASH_AT for this process (the service or gateway start does). */
export function armCrashPoints(list: string | undefined): void {
  for (const name of (list ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean))
    armed.add(name);
}

export function crashPoint(name: string): void {
  if (armed.size === 0 || !armed.has(name)) return;
  process.stderr.write(`crash point ${name}: exiting\n`);
  process.kill(process.pid, 'SIGKILL');
}
