// The served Postman collection runs as a flow with newman against the real processes, given only
// baseUrl, operatorKey and operatorSecret of a fresh sandbox credential, and ends with 0 failures: on
// a br-spa operator (as `npm start`'s demo operator) twice on the same database, then on one with the
// profile off (each run makes its own valid CPF, confirms with the payer, pays out to the player's key).
import t from 'tap';
import { createRequire } from 'node:module';
import { Value } from '@sinclair/typebox/value';
import { publicOperations, type Operation } from '@bo/contracts';
import { waitFor } from '@bo/service-kit/testing';
import { startStack } from './support/stack.ts';
import { startWebhookReceiver } from './support/webhook-receiver.ts';

const require = createRequire(import.meta.url);
const Ajv2020 = require('ajv/dist/2020') as new (opts: Record<string, unknown>) => any;
const addFormats = require('ajv-formats') as (ajv: unknown) => void;
const newman = require('newman') as {
  run(opts: Record<string, unknown>, cb: (err: Error | null, summary: any) => void): void;
};

const runNewman = (collection: unknown, envVar: { key: string; value: string }[]) =>
  new Promise<any>((resolve, reject) =>
    newman.run({ collection, envVar, reporters: [], timeoutRequest: 30_000 }, (err, summary) => (err ? reject(err) : resolve(summary))),
  );

const failuresOf = (summary: any): string[] => summary.run.failures.map((f: any) => `${f.source?.name}: ${f.error?.test ?? ''} ${f.error?.message}`);

t.test('newman runs the served postman.json as a flow with 0 failures: br-spa twice on the same database, then off', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  // As the demo operator `npm start` creates: compliance profile br-spa.
  const op = await stack.createOperator('Postman Bets');
  t.equal(
    (
      await stack.admin(
        'PUT',
        `/admin/operators/${op.operator.id}/compliance`,
        { profile: 'br-spa', reason: 'the operator is licensed in Brazil' },
        'compliance',
      )
    ).status,
    200,
  );
  const receiver = await startWebhookReceiver(op.sandbox.webhookSecret);
  t.teardown(() => receiver.close());
  t.equal((await stack.admin('PUT', `/admin/operators/${op.operator.id}/webhooks/sandbox`, { url: receiver.url })).status, 200);

  const collection = (await (await fetch(`${stack.publicUrl}/api/v1/postman.json`)).json()) as { item: { item: unknown[] }[] };
  const credentials = (o: { sandbox: { key: string; secret: string } }) => [
    { key: 'baseUrl', value: `${stack.publicUrl}/api/v1` },
    { key: 'operatorKey', value: o.sandbox.key },
    { key: 'operatorSecret', value: o.sandbox.secret },
  ];
  const summary = await runNewman(collection, credentials(op));
  t.same(failuresOf(summary), [], 'br-spa: no failed request or test');
  const journey = collection.item[0]!.item.length + collection.item[1]!.item.length;
  t.equal(summary.run.stats.requests.total, journey, 'every request ran once');
  t.equal(summary.run.stats.requests.failed, 0);
  t.equal(summary.run.stats.assertions.failed, 0);
  t.ok(summary.run.stats.assertions.total >= journey * 2, 'every response is tested');
  const statuses = summary.run.executions.map((e: any) => e.response?.code);
  t.notOk(statuses.includes(401), 'no request was refused for its signature');
  const names = summary.run.executions.map((e: any) => e.item.name);
  t.ok(names.indexOf('Register a player') < names.findIndex((n: string) => n.startsWith('Confirm the deposit')), 'runs in journey order');
  // Every journey response matches the schema of its operation in the contract (the OpenAPI source).
  const ops = publicOperations as Record<string, Operation>;
  let checked = 0;
  const mismatches = summary.run.executions.flatMap((e: any) => {
    const id = /operationId `(\w+)`/.exec(String(e.item.request.description?.content ?? e.item.request.description ?? ''))?.[1];
    if (!id) return [];
    checked++;
    const op = ops[id];
    const body = JSON.parse(e.response.text());
    // A download's response is the file itself, streamed whole (its chunks, the operation's response,
    // stay between the gateway and the service): never a chunk. The journey's own test reads the file.
    const matches = op!.download ? !('chunk' in body) : Value.Check(op!.response, body);
    return e.response.code === op!.status && matches
      ? []
      : [
          `${e.item.name}: ${e.response.code} ${[...Value.Errors(op!.response, body)]
            .slice(0, 2)
            .map((x) => `${x.path} ${x.message}`)
            .join('; ')}`,
        ];
  });
  t.same(mismatches, [], 'every journey response has its success status and matches its schema');
  t.equal(checked, collection.item[0]!.item.length, 'checked every journey response');
  // And every response of the run (journey and public documents) matches the served OpenAPI
  // document itself: the status is documented and the JSON body validates against its schema.
  const doc = (await (await fetch(`${stack.publicUrl}/api/v1/openapi.json`)).json()) as any;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi', components: doc.components });
  const resolveRefs = (node: unknown): unknown => JSON.parse(JSON.stringify(node).replaceAll('"#/components/', '"openapi#/components/'));
  const templates = Object.keys(doc.paths).map((p) => ({ p, re: new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));
  let validatedJson = 0;
  const offDocument = summary.run.executions.flatMap((e: any) => {
    const method = e.request.method.toLowerCase();
    const pathname = new URL(e.request.url.toString()).pathname.replace(/^\/api\/v1/, '');
    const template = templates.find((x) => x.re.test(pathname) && doc.paths[x.p][method]);
    const response = template && doc.paths[template.p][method].responses[String(e.response.code)];
    if (!response) return [`${e.item.name}: ${method} ${pathname} ${e.response.code} is not documented`];
    const media = response.content?.['application/json'];
    if (!media) return [];
    validatedJson++;
    const validate = ajv.compile(resolveRefs(media.schema));
    return validate(JSON.parse(e.response.text())) ? [] : [`${e.item.name}: ${ajv.errorsText(validate.errors)}`];
  });
  t.same(offDocument, [], 'every response of the run is documented and matches the OpenAPI document');
  t.equal(validatedJson, journey - 3, 'every JSON response was validated (all but /changelog, /sdk and /docs)');

  // Run after run: the same collection again on the same operator and database (a new CPF, new
  // references), and on an operator with the profile off.
  const again = await runNewman(collection, credentials(op));
  t.same(failuresOf(again), [], 'br-spa, second run: no failed request or test');
  t.equal(again.run.stats.requests.total, journey, 'every request ran once');
  const cpfs = [summary, again].map((s) => s.run.executions.find((e: any) => e.item.name.startsWith('Register a player'))?.response?.json()?.cpf);
  t.ok(cpfs[0] && cpfs[1] && cpfs[0] !== cpfs[1], 'each run registered its own CPF');
  const off = await stack.createOperator('Postman Off');
  const offRun = await runNewman(collection, credentials(off));
  t.same(failuresOf(offRun), [], 'profile off: no failed request or test');
  t.equal(offRun.run.stats.requests.total, journey, 'every request ran once');

  // Each br-spa run's redelivery is scheduled by the flow's last request and arrives after it.
  const tests = await waitFor(
    async () => {
      const signed = receiver.received.filter((r) => r.type === 'webhook.test' && r.verified);
      return signed.length >= 4 && signed;
    },
    { what: 'the redelivered test webhooks' },
  );
  const perEvent = Object.values(Object.groupBy(tests, (r) => r.id)).map((rs) => rs!.length);
  t.same(perEvent, [2, 2], "each run's test webhook arrived, signed, and again when the flow redelivered it (same event id)");
});
