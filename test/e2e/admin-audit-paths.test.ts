// Every admin change has an audit path (issue #56): the gateway writes no audit row, so each
// mutation of the admin operations table (contracts `adminOperations`, every method but GET) must be
// audited by the service that serves it (the first word of its subject), in the change's
// transaction. Read from the sources, comments left out: the operation's id, the audit log's
// `action`, must be written by that service as a value (`action: 'adminSetAmlRules'`, or the action
// handed to the function that writes the row, `audited(req, 'adminCreateProvider', …)`), not only
// named as a type (`Ops['adminCreateProvider']`), and the service must write audit rows
// (`writeDecisionAudit`, or the operators service's `recordAdminChange` / `recordAudit`). What each
// path does at run time is tested where it is written (the services' tests, admin-audit.test.ts,
// and the chaos run's count). The checker itself is shown failing on sources made to break it.
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { adminOperations, type Operation } from '@bo/contracts';
import { ownerOf } from '../../deploy/k8s/nats-identities.ts';

const SERVICES = path.resolve(import.meta.dirname, '../../services');

/** The text without its comments (a `//` after a word character or `:` is a URL, kept). */
const code = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^\w:'"`])\/\/.*$/gm, '$1');

/** A call that writes an audit row: the kit's outbox writer, or the operators service's own. */
const WRITES_AUDIT = /\b(writeDecisionAudit|recordAdminChange|recordAudit)\(/;

/** Why the service's sources give `operationId` no audit path, or nothing. */
export function missingAuditPath(operationId: string, sources: string[]): string | undefined {
  const texts = sources.map(code);
  if (!texts.some((s) => WRITES_AUDIT.test(s))) return 'the service writes no audit row';
  // The id quoted as a value: not right after `[` (a type's index, Ops['…']).
  const asValue = new RegExp(`(^|[^\\[])(['"\`])${operationId}\\2`, 'm');
  if (!texts.some((s) => asValue.test(s))) return `no audit row names ${operationId}`;
  return undefined;
}

/** Every source file of a service: services/<name>/src/**.ts. */
function sourcesOf(service: string): string[] {
  const dir = path.join(SERVICES, service, 'src');
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => readFileSync(path.join(e.parentPath, e.name), 'utf8'));
}

t.test('the checker fails a mutation with no audit path', async (t) => {
  const handler = `export const h: HandlerOf<Ops['adminPutThing']> = async (req) => ({ body: await putThing(req.body) });\n`;
  t.equal(missingAuditPath('adminPutThing', [handler]), 'the service writes no audit row', 'a service that audits nothing');
  const audited = `await writeDecisionAudit(tx, deps.schema, by, { action: 'adminOther', target, before, after });\n`;
  t.equal(missingAuditPath('adminPutThing', [handler, audited]), 'no audit row names adminPutThing', 'named as a type only');
  t.equal(missingAuditPath('adminPutThing', [`// action: 'adminPutThing'\n${audited}`]), 'no audit row names adminPutThing', 'named in a comment only');
  t.equal(missingAuditPath('adminPutThing', [handler, audited.replace('adminOther', 'adminPutThing')]), undefined, 'its action written');
  t.equal(
    missingAuditPath('adminPutThing', [`const x = await audited(req, 'adminPutThing', change);\n`, audited]),
    undefined,
    'its action handed to the writer',
  );
});

t.test('every admin mutation is audited by the service that serves it', async (t) => {
  const mutations = (Object.values(adminOperations) as Operation[]).filter((op) => op.method !== 'GET' && op.subject);
  t.ok(mutations.length >= 40, `${mutations.length} admin mutations in the operations table`);
  const sources = new Map<string, string[]>();
  const gaps: string[] = [];
  for (const op of mutations) {
    // The service that answers the subject (games.* is the wallet's: deploy/k8s/nats-identities.ts).
    const service = ownerOf(op.subject!) ?? op.subject!.split('.')[0]!;
    if (!sources.has(service)) sources.set(service, sourcesOf(service));
    const gap = missingAuditPath(op.id, sources.get(service)!);
    if (gap) gaps.push(`${op.id} (${op.method} ${op.path}, ${service}): ${gap}`);
  }
  t.same(gaps, [], 'each has its audit path');
  t.equal(missingAuditPath('adminPutThing', sourcesOf('gateway')), 'the service writes no audit row', 'and the gateway writes none');
});
