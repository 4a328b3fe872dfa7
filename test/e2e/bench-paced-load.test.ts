// The bench's paced load (bench/paced-load.ts), against a local server: it sends rate × duration
// requests whatever the machine's speed (each one's due time is computed, not observed), walks
// each connection's request sequence with that connection's own context (a confirm carries the id
// its own create was answered with), keeps to its connections, and counts statuses as it saw them.
import t from 'tap';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AutocannonRequest } from 'autocannon';
import { pacedRun } from '../../bench/paced-load.ts';

t.test('a paced run sends every request it scheduled, each sequence with its own context', async (t) => {
  const created: string[] = [];
  const confirmed: string[] = [];
  const sockets = new Set<unknown>();
  let n = 0;
  const server = http.createServer((req, res) => {
    sockets.add(req.socket);
    if (req.url === '/create') {
      const id = `c-${n++}`;
      created.push(id);
      // Answered after the next request is due, every other one sooner: sequences overlap on several
      // connections, and answers of two creates arrive between two due times.
      setTimeout(() => res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id })), n % 2 ? 60 : 40);
      return;
    }
    const id = req.url!.slice('/confirm/'.length);
    confirmed.push(id);
    res.writeHead(id === 'c-7' ? 500 : 200).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const requests: AutocannonRequest[] = [
    {
      method: 'POST',
      path: '/create',
      onResponse(_status, body, context) {
        context.id = (JSON.parse(body) as { id: string }).id;
      },
    },
    {
      method: 'POST',
      setupRequest(req, context) {
        return { ...req, path: `/confirm/${String(context.id)}` };
      },
    },
  ];
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const figures = await pacedRun(url, 4, 1, 40, requests);

  t.equal(figures.sent, 40, 'rate × duration requests sent');
  t.equal(figures.total, 40, 'and every one answered and counted');
  t.equal(created.length + confirmed.length, 40, 'creates and confirms, as the server saw them');
  // A connection whose last request was a create leaves one create unconfirmed.
  t.ok(created.length - confirmed.length >= 0 && created.length - confirmed.length <= 4, 'each connection alternates create and confirm');
  t.same(
    confirmed.filter((id, i) => !created.includes(id) || confirmed.indexOf(id) !== i),
    [],
    'each confirm carries the id its own create was answered, once',
  );
  const failed = confirmed.filter((id) => id === 'c-7').length;
  t.equal(figures.non2xx, failed, 'a 500 is counted as non-2xx');
  t.same(figures.statusCodes, { 201: created.length, 200: confirmed.length - failed, ...(failed ? { 500: failed } : {}) }, 'statuses as the server sent them');
  t.equal(figures.errors + figures.timeouts, 0, 'no errors');
  t.ok(sockets.size >= 2 && sockets.size <= 4, `several connections, at most 4 (${sockets.size})`);
  t.ok(figures.latencyMs.p99 >= figures.latencyMs.p50, 'percentiles in order');
});
