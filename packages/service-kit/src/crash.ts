// Deterministic crash tests: a named point kills the process at once when CRASH_AT names it.
// Only tests set CRASH_AT; in production this is a no-op string comparison.

export function crashPoint(name: string): void {
  const wanted = process.env.CRASH_AT;
  if (!wanted) return;
  if (wanted.split(',').includes(name)) {
    process.stderr.write(`crash point ${name}: exiting\n`);
    process.kill(process.pid, 'SIGKILL');
  }
}
