// The turbo command line `npm test` runs the workspaces' suites with (scripts/test.ts). `--continue`:
// one failing suite never cancels the others (turbo's default would send SIGINT to every running
// task, whose files then count as failures they did not have); test/e2e/turbo-continue.test.ts
// runs these arguments on a scratch monorepo.
export const turboTestArgs = (filters: string[]): string[] => [
  'run',
  'test',
  '--force',
  '--concurrency=2',
  '--log-order=stream',
  '--continue',
  ...filters.map((f) => `--filter=${f}`),
];
