// The README's table of metrics is what the processes really expose: the whole system runs as real
// processes, each with its own METRICS_PORT, does a little of everything (a deposit, a webhook, a
// ledger verification), and every process's /metrics is compared with the table both ways: each
// series listed is exposed by the processes the table names (with the labels it names), and each
// series a process exposes (Node's defaults aside) is listed for it. Before any of that, on the fresh
// start, every series listed already has a sample on its process (at zero where nothing happened), so
// that a missing series means a process down, never "nothing happened yet".
import t from 'tap';
import { waitFor } from '@bo/service-kit/testing';
import { freePort } from '../../scripts/local-infra.ts';
import { startStack, playerInput, uniq, COMPONENTS, type Component } from './support/stack.ts';
import { startWebhookReceiver } from './support/webhook-receiver.ts';
import { readmeMetrics } from './support/readme-metrics.ts';

/** The series of one scrape (Node's defaults aside), with the label names its samples carry. */
function exposed(text: string): Map<string, string[]> {
  const types = new Map<string, string>();
  for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) types.set(m[1]!, m[2]!);
  const series = new Map<string, string[]>();
  for (const [name, type] of types) {
    if (/^(process|nodejs)_/.test(name)) continue;
    // A histogram's labels are those of its _count (without `le`).
    const sample = type === 'histogram' ? `${name}_count` : name;
    const line = text.split('\n').find((l) => l.startsWith(`${sample}{`) || l.startsWith(`${sample} `));
    const labels = line?.match(/^\S+?\{(.*)\}/)?.[1]?.match(/([a-z_]+)="/g) ?? [];
    series.set(
      name,
      labels.map((l) => l.slice(0, -2)),
    );
  }
  return series;
}

/** The series of one scrape that have at least one sample (a histogram's by its `_count`). */
function sampled(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/^([a-z_]+?)(_count|_sum|_bucket)?[{ ]/gm)) names.add(m[1]!);
  for (const m of text.matchAll(/^([a-z_]+)[{ ]/gm)) names.add(m[1]!);
  return names;
}

t.test("the README's metrics are the ones the processes expose", async (t) => {
  const ports = new Map<Component, number>();
  for (const c of COMPONENTS) ports.set(c, await freePort());
  const stack = await startStack({}, undefined, { envOf: (c) => ({ METRICS_PORT: String(ports.get(c)) }) });
  t.teardown(() => stack.close());
  const listed = readmeMetrics();

  // The fresh start, before any operator's traffic: every series listed for a process has a sample.
  for (const c of COMPONENTS) {
    const have = sampled(await (await fetch(`http://127.0.0.1:${ports.get(c)}/metrics`)).text());
    const missing = [...listed].filter(([name, l]) => l.processes.includes(c) && !have.has(name)).map(([name]) => name);
    t.same(missing, [], `${c}: every series the README lists for it has a sample from the start`);
  }

  // A little of everything, so that counters with labels have samples.
  const op = await stack.createOperator('Metrics Bets');
  const receiver = await startWebhookReceiver(op.sandbox.webhookSecret);
  t.teardown(() => receiver.close());
  await stack.admin('PUT', `/admin/operators/${op.operator.id}/webhooks/sandbox`, { url: receiver.url });
  await stack.firstTestWebhook(op.sandboxClient);
  const c = op.sandboxClient;
  const player = await c.post('/players', playerInput(uniq('m')), { 'idempotency-key': uniq('k') });
  const deposit = await c.post(
    `/players/${player.body.id}/deposits`,
    { amount: '10.00', currency: 'BRL', method: 'pix', externalReference: uniq('psp') },
    {
      'idempotency-key': uniq('k'),
    },
  );
  t.equal((await c.post(`/deposits/${deposit.body.id}/confirm`, {}, { 'idempotency-key': uniq('k') })).status, 200);
  t.equal((await stack.admin('GET', '/admin/ledger/verify')).body.ok, true, 'the ledger verification ran');
  await waitFor(async () => receiver.received.some((r) => r.type === 'deposit.confirmed'), { timeoutMs: 60_000, intervalMs: 100, what: 'the deposit webhook' });

  t.ok(listed.size >= 10, 'the README lists the series in its table');
  for (const c of COMPONENTS) {
    const text = await (await fetch(`http://127.0.0.1:${ports.get(c)}/metrics`)).text();
    const got = exposed(text);
    const expected = [...listed].filter(([, l]) => l.processes.includes(c)).map(([name]) => name);
    t.same([...got.keys()].sort(), expected.sort(), `${c}: the series exposed are the ones the README lists for it`);
    for (const [name, labels] of got) {
      // Labels are checked where the series has a sample.
      if (labels.length > 0 && listed.has(name)) t.same(labels.sort(), listed.get(name)!.labels, `${c}: ${name} has the README's labels`);
    }
  }
});
