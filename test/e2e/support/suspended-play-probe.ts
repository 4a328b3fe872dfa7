// The suspended-play probe of `npm run chaos` (issue #24): one real-money game session of a
// dedicated operator stays open while every process is killed and restarted, and the operator is
// suspended and resumed through the admin API in turns. After a resume has been answered, a round
// of that session must play; after a suspension has been answered, a round with the same gameUrl
// must be refused with OPERATOR_SUSPENDED, whatever retries either took. At the end the player's
// ledger must hold exactly the rounds that played (a BET each, a WIN exactly when it paid) and
// the wallet must agree with them. Each admin call has its own Idempotency-Key, kept across its
// retries, and the report lists the changes answered (chaos.ts counts their audit rows). Self-contained:
// chaos.ts starts it before its workload and adds its problems to its own.
import { randomUUID } from 'node:crypto';
import { OperatorClient, type CreatedOperator } from '@bo/contracts';
import { ADMIN_TOKEN, type Stack } from './stack.ts';

export interface SuspendedPlayReport {
  cycles: number;
  /** Rounds played while the operator was active. */
  played: number;
  /** Rounds refused with OPERATOR_SUSPENDED while it was suspended. */
  refused: number;
  /** Every admin change answered 2xx, in order: what the audit log must hold one row of. */
  adminChanges: Array<{ target: string; action: string }>;
  problems: string[];
}

interface Answer {
  status: number;
  body: any;
}

const DEPOSIT = '100.00';
const STAKE = '0.10';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const cents = (s: string) => Math.round(Number(s) * 100);

/** The same request until a final answer: no answer, 5xx and 429 are sent again, for up to 180 s. */
async function answered(send: () => Promise<Answer>, what: string): Promise<Answer> {
  const deadline = Date.now() + 180_000;
  for (let attempt = 0; ; attempt++) {
    const r = await send().catch(() => undefined);
    if (r && r.status < 500 && r.status !== 429 && !(r.status === 409 && r.body?.error?.code === 'IDEMPOTENCY_IN_PROGRESS')) return r;
    if (Date.now() > deadline) throw new Error(`suspended-play probe, ${what}: no final answer in 180 s (last ${r?.status ?? 'no answer'})`);
    await sleep(Math.min(2000, 100 * 2 ** Math.min(attempt, 5)));
  }
}

/**
 * Runs until `endAt`, then checks the ledger; resolves with what it saw, never rejects (a failure
 * is a problem of the report), so it can be started before the workload and awaited after it.
 */
export function runSuspendedPlayProbe(s: Stack, endAt: number): Promise<SuspendedPlayReport> {
  return probe(s, endAt).catch((err: unknown) => ({
    cycles: 0,
    played: 0,
    refused: 0,
    adminChanges: [],
    problems: [`suspended-play probe failed: ${String(err)}`],
  }));
}

async function probe(s: Stack, endAt: number): Promise<SuspendedPlayReport> {
  const report: SuspendedPlayReport = { cycles: 0, played: 0, refused: 0, adminChanges: [], problems: [] };
  /** An admin change, sent again with its key until answered; `audit`: its audit row's target and action, once answered. */
  const admin = async (method: string, path: string, body: unknown, want: number, audit?: (answer: any) => { target: string; action: string }) => {
    const headers = {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      'idempotency-key': `probe-${randomUUID()}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    };
    const r = await answered(async () => {
      const res = await fetch(`${s.adminUrl}${path}`, { method, headers, body: body !== undefined ? JSON.stringify(body) : undefined });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    }, `admin ${method} ${path}`);
    if (r.status !== want) throw new Error(`suspended-play probe, admin ${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    if (audit) report.adminChanges.push(audit(r.body));
    return r.body;
  };
  const op = (await admin('POST', '/admin/operators', { name: 'Chaos Paused Bets' }, 201, (o: CreatedOperator) => ({
    target: `operator:${o.operator.id}`,
    action: 'adminCreateOperator',
  }))) as CreatedOperator;
  const operatorChange = (action: 'adminSuspendOperator' | 'adminResumeOperator') =>
    admin('POST', `/admin/operators/${op.operator.id}/${action === 'adminSuspendOperator' ? 'suspend' : 'resume'}`, undefined, 200, () => ({
      target: `operator:${op.operator.id}`,
      action,
    }));
  const live = new OperatorClient({ baseUrl: `${s.publicUrl}/api/v1`, key: op.production.key, secret: op.production.secret });
  const api = async (method: 'get' | 'post', path: string, body?: unknown, want = 200) => {
    const key = { 'idempotency-key': `probe-${randomUUID()}` };
    const r = await answered(() => (method === 'get' ? live.get(path) : live.post(path, body, key)), `${method} ${path}`);
    if (r.status !== want) throw new Error(`suspended-play probe, ${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };

  const player = await api(
    'post',
    '/players',
    { externalId: 'paused-1', name: 'Ana Souza', email: 'paused@example.com', cpf: '52998224725', birthDate: '1990-05-17' },
    201,
  );
  await admin('POST', `/admin/players/${player.id}/kyc/decision`, { status: 'aprovado' }, 200, () => ({
    target: `player:${player.id}`,
    action: 'adminKycDecision',
  }));
  const deposit = await api(
    'post',
    `/players/${player.id}/deposits`,
    { amount: DEPOSIT, currency: 'BRL', method: 'pix', externalReference: `paused-${randomUUID()}` },
    201,
  );
  await api('post', `/deposits/${deposit.id}/confirm`);
  // Not idempotent: a retry after a lost answer opens another session, and this one is used.
  const session = await api('post', `/players/${player.id}/game-sessions`, { gameId: 'gm_dice_classic' }, 201);

  const round = (clientRoundId: string) =>
    answered(async () => {
      const res = await fetch(`${session.gameUrl}/rounds`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ amount: STAKE, target: '50', clientRoundId }),
      });
      return { status: res.status, body: await res.json() };
    }, 'round');

  const played = new Map<string, { amount: string; payout: string }>();
  while (Date.now() < endAt) {
    report.cycles++;
    await operatorChange('adminResumeOperator');
    const ok = await round(`resumed-${randomUUID()}`);
    if (ok.status === 201) played.set(ok.body.id, { amount: ok.body.amount, payout: ok.body.payout });
    else report.problems.push(`suspended-play: a round after the resume was answered got ${ok.status} ${ok.body?.error?.code}`);

    await operatorChange('adminSuspendOperator');
    const refused = await round(`suspended-${randomUUID()}`);
    if (refused.status === 403 && refused.body?.error?.code === 'OPERATOR_SUSPENDED') report.refused++;
    else
      report.problems.push(`suspended-play: a round after the suspension was answered got ${refused.status} ${refused.body?.error?.code ?? refused.body?.id}`);
    await sleep(300);
  }
  report.played = played.size;

  // The operator API refuses a suspended operator: resume it to read the ledger.
  await operatorChange('adminResumeOperator');
  const entries: Array<{ type: string; amount: string; referenceId: string }> = [];
  for (let cursor: string | null = null; ; ) {
    const page: { data: typeof entries; nextCursor: string | null } = await api(
      'get',
      `/players/${player.id}/transactions?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    entries.push(...page.data);
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  const rounds = entries.filter((e) => e.type === 'BET' || e.type === 'WIN');
  const strays = rounds.filter((e) => !played.has(e.referenceId));
  if (strays.length) report.problems.push(`suspended-play: ${strays.length} BET/WIN entries of rounds no client saw played, e.g. ${JSON.stringify(strays[0])}`);
  let expected = cents(DEPOSIT);
  for (const [id, r] of played) {
    const mine = rounds.filter((e) => e.referenceId === id).map((e) => `${e.type} ${e.amount}`);
    const want = [...(cents(r.payout) > 0 ? [`WIN ${r.payout}`] : []), `BET -${r.amount}`];
    if (JSON.stringify(mine.sort()) !== JSON.stringify(want.sort())) report.problems.push(`suspended-play: round ${id} has entries ${mine.join(', ')}`);
    expected += cents(r.payout) - cents(r.amount);
  }
  const wallet = await api('get', `/players/${player.id}/wallet`);
  if (cents(wallet.available) !== expected)
    report.problems.push(`suspended-play: available ${wallet.available}, the played rounds make ${(expected / 100).toFixed(2)}`);
  return report;
}
