// How `npm start` and `npm test` learn they must stop: SIGINT (Ctrl-C), SIGTERM or SIGHUP to
// this process, or the process that started it (npm, a shell) going away without passing a
// signal on; then we would be re-parented and must not run on as orphans.
export function onStopRequest(stop: (why: string) => void): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(signal));
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop('parent exited');
  }, 500).unref();
}
