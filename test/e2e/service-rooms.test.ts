// Every service's rooms are named the same (docs/architecture.md, "One template per service"): a
// service of one module has handlers/ and store/ at its root (domain/ when it has rules), a service
// of several has them in each module, with the module's wiring (module.ts) and its face
// (index.ts), and the root keeps at most a shared store/ with its face; the services of several modules are exactly those the face rule of
// .dependency-cruiser.json holds; the gateway, which opens no database, has no store/.
import t from 'tap';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SERVICES = path.join(ROOT, 'services');

const folders = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();

/** A module: a folder of the service's src with its wiring. */
const modulesOf = (src: string): string[] => folders(src).filter((f) => existsSync(path.join(src, f, 'module.ts')));

/** The services the face rule holds, as listed in its from.path: `^services/(a|b)/src/…`. */
function servicesOfTheFaceRule(): string[] {
  const config = JSON.parse(readFileSync(path.join(ROOT, '.dependency-cruiser.json'), 'utf8')) as {
    forbidden: { name: string; from: { path: string } }[];
  };
  const rule = config.forbidden.find((r) => r.name === 'module-through-its-face');
  const listed = rule?.from.path.match(/^\^services\/\(([^)]+)\)\//)?.[1];
  return (listed ?? '').split('|').sort();
}

const services = folders(SERVICES).filter((s) => existsSync(path.join(SERVICES, s, 'src', 'service.ts')) || s === 'gateway');

t.test('each service of several modules is held by the face rule, and only those', async (t) => {
  const modular = services.filter((s) => modulesOf(path.join(SERVICES, s, 'src')).length > 1);
  t.ok(modular.includes('wallet'), 'the wallet is made of modules');
  t.same(modular.sort(), servicesOfTheFaceRule());
});

t.test('every room is where the template puts it', async (t) => {
  for (const service of services) {
    const src = path.join(SERVICES, service, 'src');
    if (service === 'gateway') {
      t.notOk(existsSync(path.join(src, 'store')), 'the gateway has no store/');
      continue;
    }
    const modules = modulesOf(src);
    const homes = modules.length > 1 ? modules.map((m) => path.join(src, m)) : [src];
    for (const home of homes) {
      const name = path.relative(SERVICES, home);
      const rooms = folders(home);
      t.ok(rooms.includes('handlers') && rooms.includes('store'), `${name} has handlers/ and store/ (${rooms.join(' ')})`);
      if (modules.length > 1) t.ok(existsSync(path.join(home, 'index.ts')), `${name} has its face, index.ts`);
    }
    if (modules.length > 1) {
      // The root may keep a store/ for what the schema's modules share (the entities, the
      // migrations: one list each per schema), reached through its own face; the rules and the
      // subjects are a module's.
      const shared = folders(src).filter((f) => ['handlers', 'domain'].includes(f));
      t.same(shared, [], `${service}: handlers/ and domain/ are in its modules, not at its root`);
      if (existsSync(path.join(src, 'store'))) t.ok(existsSync(path.join(src, 'store', 'index.ts')), `${service}: the shared store/ has its face`);
    }
  }
});
