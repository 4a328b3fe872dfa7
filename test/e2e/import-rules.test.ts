// `npm run check:imports` (.dependency-cruiser.json) holds the service template's import rules
// (docs/architecture.md, "One template per service"): it passes on the tree as it is, and on a
// fixture shaped like the wallet and players it reports each deliberate violation by its rule: a
// module importing another past its face (index.ts), or past the face of the store its service's
// modules share (players' store/), a domain/ file importing a store/ (a type counts; in
// the wallet's modules and in operators, a service of one module),
// an HTTP package (http-kit, console, portal, play) importing the service kit, the gateway reaching
// the kit's database modules (through another kit module).
// An import through the face passes, and a service that has not adopted the template is not held
// to the face rule.
import t from 'tap';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CONFIG = path.join(ROOT, '.dependency-cruiser.json');
const DEPCRUISE = path.join(ROOT, 'node_modules/.bin/depcruise');

function run(cwd: string, args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(DEPCRUISE, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out })));
}

/** The fixture: file path → source. */
const FIXTURE: Record<string, string> = {
  'services/wallet/src/ledger/index.ts': `export { readWallet } from './store/queries.ts';\n`,
  'services/wallet/src/ledger/store/queries.ts': `export const readWallet = () => '0.00';\n`,
  'services/wallet/src/games/store/rows.ts': `export interface GameRow { id: string }\nexport const rows: GameRow[] = [];\n`,
  // Allowed: another module through its face; a module's own store from its handlers.
  'services/wallet/src/games/handlers/through-face.ts': `import { readWallet } from '../../ledger/index.ts';\nimport { rows } from '../store/rows.ts';\nexport const a = [readWallet, rows];\n`,
  // Violations.
  'services/wallet/src/games/handlers/past-face.ts': `import { readWallet } from '../../ledger/store/queries.ts';\nexport const b = readWallet;\n`,
  'services/wallet/src/games/domain/rules.ts': `import type { GameRow } from '../store/rows.ts';\nexport const rule = (g: GameRow) => g.id;\n`,
  'services/wallet/src/games/domain/other-store.ts': `import { readWallet } from '../../ledger/store/queries.ts';\nexport const c = readWallet;\n`,
  // Players: its modules share the schema's store/ (entities, migrations, the player row) through its face too.
  'services/players/src/store/entities.ts': `export const PlayerEntity = 'players';\n`,
  'services/players/src/store/index.ts': `export { PlayerEntity } from './entities.ts';\n`,
  'services/players/src/rg/index.ts': `export { limitRows } from './store/limits.ts';\n`,
  // Allowed: the shared store through its face; another module through its face.
  'services/players/src/rg/store/limits.ts': `import { PlayerEntity } from '../../store/index.ts';\nexport const limitRows = () => [PlayerEntity];\n`,
  'services/players/src/players/handlers/through-face.ts': `import { limitRows } from '../../rg/index.ts';\nexport const p1 = limitRows;\n`,
  // Violations.
  'services/players/src/players/handlers/past-face.ts': `import { limitRows } from '../../rg/store/limits.ts';\nexport const p2 = limitRows;\n`,
  'services/players/src/kyc/store/past-shared-face.ts': `import { PlayerEntity } from '../../store/entities.ts';\nexport const k1 = PlayerEntity;\n`,
  // A service of one module on the template (operators): its domain/ imports no store/ either.
  'services/operators/src/store/team.ts': `export interface MemberRow { id: string }\n`,
  'services/operators/src/domain/roles.ts': `import type { MemberRow } from '../store/team.ts';\nexport const g = (m: MemberRow) => m.id;\n`,
  // The HTTP packages without the service kit.
  'packages/service-kit/src/index.ts': `export const kit = 1;\n`,
  'packages/console/src/uses-kit.ts': `import { kit } from '../../service-kit/src/index.ts';\nexport const f = kit;\n`,
  // The edge (the gateway) takes the kit through its edge face; nothing it loads reaches the kit's database modules, not even through another kit module.
  'packages/service-kit/src/edge.ts': `export const edge = 1;\n`,
  'packages/service-kit/src/sql.ts': `export const sql = 1;\n`,
  'packages/service-kit/src/readiness.ts': `import { sql } from './sql.ts';\nexport const ready = sql;\n`,
  'services/gateway/src/edge-face.ts': `import { edge } from '../../../packages/service-kit/src/edge.ts';\nexport const g1 = edge;\n`,
  'services/gateway/src/through-kit.ts': `import { ready } from '../../../packages/service-kit/src/readiness.ts';\nexport const g2 = ready;\n`,
  // The kit's stored answers (idempotency/) load pg too.
  'packages/service-kit/src/idempotency/effect-kept.ts': `export const runOnce = 1;\n`,
  'services/gateway/src/answers.ts': `import { runOnce } from '../../../packages/service-kit/src/idempotency/effect-kept.ts';\nexport const g3 = runOnce;\n`,
  // A service outside the template: its folders import each other freely.
  'services/payments/src/domain/deposit.ts': `export const d = 1;\n`,
  'services/payments/src/handlers/deposit.ts': `import { d } from '../domain/deposit.ts';\nexport const e = d;\n`,
};

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

t.test('the tree as it is passes the import rules', async (t) => {
  const r = await run(ROOT, ['--config', CONFIG, 'services/*/src', 'packages/*/src']);
  t.equal(r.code, 0, r.out);
});

t.test('a fixture with deliberate violations fails, each named by its rule', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bo-import-rules-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  for (const [file, source] of Object.entries(FIXTURE)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), source);
  }
  // As check:imports runs it: a failure.
  const checked = await run(dir, ['--config', CONFIG, 'services', 'packages']);
  t.not(checked.code, 0, 'depcruise exits non-zero');
  t.match(checked.out, /error module-through-its-face: services\/wallet\/src\/games\/handlers\/past-face\.ts/);
  // Which violations, exactly (the json reporter exits 0 whatever it found).
  const r = await run(dir, ['--config', CONFIG, '--output-type', 'json', 'services', 'packages']);
  const report = JSON.parse(r.out.slice(r.out.indexOf('{'))) as { summary: { violations: Violation[] } };
  const found = report.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
  t.same(found, [
    'domain-imports-no-store: services/operators/src/domain/roles.ts -> services/operators/src/store/team.ts',
    'domain-imports-no-store: services/wallet/src/games/domain/other-store.ts -> services/wallet/src/ledger/store/queries.ts',
    'domain-imports-no-store: services/wallet/src/games/domain/rules.ts -> services/wallet/src/games/store/rows.ts',
    'edge-loads-no-database: services/gateway/src/answers.ts -> packages/service-kit/src/idempotency/effect-kept.ts',
    'edge-loads-no-database: services/gateway/src/through-kit.ts -> packages/service-kit/src/sql.ts',
    'http-packages-no-service-kit: packages/console/src/uses-kit.ts -> packages/service-kit/src/index.ts',
    'module-through-its-face: services/players/src/kyc/store/past-shared-face.ts -> services/players/src/store/entities.ts',
    'module-through-its-face: services/players/src/players/handlers/past-face.ts -> services/players/src/rg/store/limits.ts',
    'module-through-its-face: services/wallet/src/games/domain/other-store.ts -> services/wallet/src/ledger/store/queries.ts',
    'module-through-its-face: services/wallet/src/games/handlers/past-face.ts -> services/wallet/src/ledger/store/queries.ts',
  ]);
});
