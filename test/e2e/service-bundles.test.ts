// The bundles `npm test` starts the services from (scripts/test-service-bundles.ts): one per service, each
// of our files keeping its own location, what tracing patches left to Node, later imports left later; and
// `serviceEntry` choosing the bundle only when the run made one. The flows themselves run on them in
// every e2e stack and crash test of a full run.
import t from 'tap';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { serviceEntry } from '@bo/service-kit/testing';
import { buildServiceBundles, serviceMains } from '../../scripts/test-service-bundles.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

t.test('a bundle per service, the same code in one place', async (t) => {
  // Under the checkout, as npm test's are: what stays outside the bundle is found in its node_modules.
  mkdirSync(path.join(ROOT, '.data'), { recursive: true });
  const dir = mkdtempSync(path.join(ROOT, '.data', 'bundles-test-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const names = await buildServiceBundles(dir);
  t.same(names.sort(), Object.keys(serviceMains()).sort(), 'every service with a main.ts');
  t.ok(names.includes('gateway') && names.includes('wallet'), 'the gateway and the wallet among them');

  const everything = [dir, path.join(dir, 'shared')].flatMap((d) =>
    readdirSync(d)
      .filter((f) => f.endsWith('.mjs'))
      .map((f) => readFileSync(path.join(d, f), 'utf8')),
  );
  const text = everything.join('\n');
  t.ok(text.includes(JSON.stringify(path.join(ROOT, 'packages/console/src'))), "the console's files find their assets where they are");
  t.notOk(/import\.meta\.dirname/.test(text.replaceAll('import.meta.url', '')), 'no file takes the bundle’s location for its own');
  t.match(text, /from "pg"/, 'pg loaded by Node (tracing patches it as it loads)');
  t.notOk(text.includes('class PgInstrumentation'), 'the OpenTelemetry SDK not inside: loaded only by a process that traces');
  const main = readFileSync(path.join(dir, 'wallet.mjs'), 'utf8');
  t.match(main, /await startTracing\("wallet"\);[\s\S]*await import\(/, 'tracing starts before the rest is imported');

  // This run's own bundles set aside (npm test sets them for every file), then this test's.
  const runs = process.env.BO_TEST_SERVICE_BUNDLES;
  delete process.env.BO_TEST_SERVICE_BUNDLES;
  t.teardown(() => {
    if (runs === undefined) delete process.env.BO_TEST_SERVICE_BUNDLES;
    else process.env.BO_TEST_SERVICE_BUNDLES = runs;
  });
  t.equal(serviceEntry(path.join(ROOT, 'services/wallet/src/main.ts')), path.join(ROOT, 'services/wallet/src/main.ts'), 'without a run’s bundles: the sources');
  process.env.BO_TEST_SERVICE_BUNDLES = dir;
  t.equal(serviceEntry(new URL(`file://${ROOT}/services/wallet/src/main.ts`)), path.join(dir, 'wallet.mjs'), "with them: the service's bundle");
  t.equal(serviceEntry(path.join(ROOT, 'scripts/start.ts')), path.join(ROOT, 'scripts/start.ts'), 'anything else: itself');
});
