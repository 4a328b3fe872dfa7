// A fuzz of the provider wallet API (/provider/v1, docs/providers.md; issue #56) through the real
// gateway and services: signed calls of every operation (authenticate, balance, bets, wins,
// rollbacks, corrections) with malformed, boundary and extreme values in every field (amounts
// around and far beyond each range, "-0", numbers, wrong types, ids reused across operations and
// players, tokens of other players and operators, unknown fields, broken JSON, other media types),
// played a few at a time so replays and conflicts race. Whatever arrives:
// - no answer is a 5xx, and every refusal is a code of docs/providers.md's table at its status;
// - no amount outside its documented range is accepted (each 200 checked against its request,
//   and every row and ledger transaction of the provider afterwards);
// - the money holds: each player's wallet is its deposit plus what the accepted answers moved, the
//   ledger verifies (balanced, every balance equal to its entries, provider rows to their ledger
//   transactions).
// The calls are drawn from a fixed seed: the same calls, and the same assertions, on every run. All
// 5,000 run in the suite (about 30 s of calls on a quiet 2-core machine, after the stack's start);
// `npm run fuzz:providers` runs this file alone, with PROVIDER_FUZZ_SEED / PROVIDER_FUZZ_CALLS to
// draw other calls (docs/providers.md, "Testing your integration").
import t from 'tap';
import fc from 'fast-check';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROVIDER_API_PREFIX, signRequest } from '@bo/contracts';
import { AdminSide, OperatorSide, startLaunchServer, type SimProvider } from '@bo/provider-sim';
import { ADMIN_TOKEN, startStack } from './support/stack.ts';

// Another seed or count explores other calls: PROVIDER_FUZZ_SEED=7 PROVIDER_FUZZ_CALLS=20000 npm run fuzz:providers.
const SEED = Number(process.env.PROVIDER_FUZZ_SEED ?? 20261156);
const CALLS = Number(process.env.PROVIDER_FUZZ_CALLS ?? 5000);
/** Calls in flight at once: replays and conflicts of one id race. */
const IN_FLIGHT = 4;
const FUNDS = '1000.00';
const NO_RETRY = { deadlineMs: 0 };
const MAX_CENTS = 100_000_000n;
/** A win's, a correction's: 9,999,999,999,999.99 (issue #66 item 5: a prize pays more than a bet). */
const MAX_WIN_CENTS = 999_999_999_999_999n;

const OPERATIONS = ['authenticate', 'balance', 'bets', 'wins', 'rollbacks', 'corrections'] as const;
type Op = (typeof OPERATIONS)[number];

// ---- what is sent: drawn before the run, resolved against the players at send time ----
// Each call is first a coherent one (a player's token or id, one of that player's rounds, an amount
// in range), so money moves and rounds open, settle and roll back; then, often, one field is
// replaced with a malformed, boundary or extreme value, or the body's shape, bytes or type broken.

/** A reference to a known player (resolved at send time) or a literal value. */
type Ref = { player: number } | { literal: unknown };
interface Call {
  op: Op;
  /** The body's fields (a Ref for tokens and player ids), or raw bytes. */
  fields: Record<string, unknown> | { raw: string };
  type: string | undefined;
  upperHex: boolean;
}

const PLAYERS = 5;
/** Transaction ids are drawn from a pool: reused ids make replays and conflicts, across kinds and players. */
const IDS = Math.max(100, CALLS * 2);
const ROUNDS_PER_PLAYER = Math.max(10, Math.floor(CALLS / 100));

/** Text that must never get past validation, or past it as something else. */
const nasty = fc.constantFrom(
  '',
  ' ',
  'a b',
  '\u0000',
  'x\u0000y',
  '\ud800',
  '💸',
  'é',
  'x'.repeat(129),
  'x'.repeat(5000),
  '../../etc/passwd',
  '%00',
  'null',
  '{}',
  '1e309',
);
const wrongType = fc.constantFrom<unknown>(0, 1, -1, 10, Number.MAX_VALUE, -0, 1.5, true, false, null, [], {}, ['1.00'], { amount: '1.00' });
const cents = (n: bigint) => `${n < 0n ? '-' : ''}${(n < 0n ? -n : n) / 100n}.${String((n < 0n ? -n : n) % 100n).padStart(2, '0')}`;
const centsIn = (min: bigint, max: bigint) => fc.bigInt({ min, max }).map(cents);

/** Amounts within each documented range: mostly small (the players hold 1,000.00), sometimes an edge. */
const validAmount = {
  bets: fc.oneof(
    { weight: 9, arbitrary: centsIn(1n, 5000n) },
    { weight: 1, arbitrary: fc.constantFrom('0.01', '0.1', '1', '999999.99', '1000000', '1000000.00') },
  ),
  wins: fc.oneof(
    { weight: 8, arbitrary: centsIn(0n, 10_000n) },
    { weight: 1, arbitrary: fc.constantFrom('0', '0.0', '0.00', '0.01', '1000000', '1000000.00', '63727092.34', '9999999999999.99') },
  ),
  corrections: fc.oneof(
    { weight: 8, arbitrary: fc.oneof(centsIn(1n, 5000n), centsIn(-5000n, -1n)) },
    { weight: 1, arbitrary: fc.constantFrom('0.01', '-0.01', '1000000.00', '-1000000.00', '-1000000', '63727092.34', '-9999999999999.99') },
  ),
};
/** Amounts no range takes, or that only some take: zeros and "-0", just and far beyond the ranges, malformed, other types. */
const edgeAmount: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('0', '0.0', '0.00', '-0', '-0.0', '-0.00', '00', '-00.00') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '1000000.01',
      '1000001',
      '5000000.00',
      '99999999.00',
      '9999999.99',
      '-1000000.01',
      '-5000000.00',
      '10000000000000.00',
      '-10000000000000.00',
      `1${'0'.repeat(400)}`,
    ),
  },
  { weight: 2, arbitrary: centsIn(-5000n, -1n) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      ' 1',
      '1 ',
      '01',
      '01.00',
      '1.001',
      '.5',
      '1.',
      '+1',
      '-',
      '--1',
      '1e3',
      '1E2',
      'NaN',
      'Infinity',
      '１',
      '1,00',
      '0x10',
      '1_000',
    ),
  },
  { weight: 1, arbitrary: fc.bigInt({ min: 1n, max: 10n ** 30n }).map((n) => n.toString()) },
  { weight: 1, arbitrary: nasty },
  { weight: 2, arbitrary: wrongType },
);
/** Any other field's bad value: text, other types, another player's or no player's reference, another currency or game. */
const badValue: fc.Arbitrary<unknown> = fc.oneof(
  nasty,
  wrongType,
  fc.constantFrom<unknown>('USD', 'brl', 'sim-roulette', 'no-such-game', 'plr_unknown', 'pst_forged', `pst_${'A'.repeat(43)}`, 'won', 'jackpot'),
  fc.integer({ min: 0, max: PLAYERS - 1 }).map((i): Ref => ({ player: i })),
  fc.constantFrom<unknown>('2026-11-21T21:50:00.000Z', '2026-13-40T99:00:00Z', 'yesterday'),
);

/** A coherent call of `op` by player `p` on one of its rounds (sometimes another player's round). */
const coherent = (op: Op) =>
  fc
    .record({
      p: fc.integer({ min: 0, max: PLAYERS - 1 }),
      other: fc.integer({ min: 1, max: PLAYERS - 1 }),
      crossRound: fc.boolean().chain((b) => (b ? fc.constantFrom(true, false, false, false, false) : fc.constant(false))),
      round: fc.integer({ min: 0, max: ROUNDS_PER_PLAYER - 1 }),
      tx: fc.integer({ min: 0, max: IDS - 1 }),
      betTx: fc.integer({ min: 0, max: IDS - 1 }),
      amount: op === 'bets' || op === 'wins' || op === 'corrections' ? validAmount[op] : fc.constant(undefined),
      roundClosed: fc.option(fc.constantFrom(true, false, false), { nil: undefined, freq: 3 }),
    })
    .map(({ p, other, crossRound, round, tx, betTx, amount, roundClosed }): Record<string, unknown> => {
      const me: Ref = { player: p };
      const roundId = `round-${crossRound ? (p + other) % PLAYERS : p}-${round}`;
      const transactionId = `tx-${tx}`;
      const bodies: Record<Op, Record<string, unknown>> = {
        authenticate: { token: me },
        balance: { token: me },
        bets: { transactionId, token: me, roundId, gameCode: 'sim-fruits', amount, currency: 'BRL' },
        wins: { transactionId, playerId: me, roundId, amount, currency: 'BRL', roundClosed },
        rollbacks: { transactionId, playerId: me, betTransactionId: `tx-${betTx}`, roundId },
        corrections: { transactionId, playerId: me, roundId, amount, currency: 'BRL', reason: 'resettled' },
      };
      return bodies[op];
    });

/** Often one field replaced: the amount (the weightiest), or any other; sometimes a field dropped or an unknown one added. */
const mutation = fc.oneof(
  { weight: 6, arbitrary: fc.constant((b: Record<string, unknown>) => b) },
  { weight: 4, arbitrary: edgeAmount.map((v) => (b: Record<string, unknown>) => ('amount' in b ? { ...b, amount: v } : b)) },
  {
    weight: 3,
    arbitrary: fc.tuple(fc.nat(), badValue).map(([n, v]) => (b: Record<string, unknown>) => {
      const keys = Object.keys(b);
      return { ...b, [keys[n % keys.length]!]: v };
    }),
  },
  {
    weight: 1,
    arbitrary: fc.nat().map((n) => (b: Record<string, unknown>) => Object.fromEntries(Object.entries(b).filter((_, i) => i !== n % Object.keys(b).length))),
  },
  { weight: 1, arbitrary: fc.constantFrom('extra', 'amount ', 'constructor', '').map((k) => (b: Record<string, unknown>) => ({ ...b, [k]: '1.00' })) },
);
const rawBody = fc.constantFrom(
  '',
  '{',
  '[]',
  '"x"',
  'null',
  '{"amount":1e999}',
  `{"a":${'['.repeat(2000)}${']'.repeat(2000)}}`,
  '{"token":"\\ud800"}',
  'x'.repeat(110 * 1024),
);
const mediaType = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constantFrom('application/json; charset=utf-8', 'APPLICATION/JSON') },
  { weight: 1, arbitrary: fc.constantFrom<string | undefined>('application/vnd.api+json', 'text/plain', 'application/x-www-form-urlencoded', undefined) },
);
/** Money calls more often than reads: bets most (they open the rounds the others settle). */
const operation = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom<Op>('authenticate', 'balance') },
  { weight: 4, arbitrary: fc.constant<Op>('bets') },
  { weight: 3, arbitrary: fc.constant<Op>('wins') },
  { weight: 1, arbitrary: fc.constant<Op>('rollbacks') },
  { weight: 2, arbitrary: fc.constant<Op>('corrections') },
);
const call: fc.Arbitrary<Call> = operation.chain((op) =>
  fc.record({
    op: fc.constant(op),
    fields: fc.oneof(
      { weight: 30, arbitrary: fc.tuple(coherent(op), mutation).map(([b, f]) => f(b)) },
      { weight: 1, arbitrary: rawBody.map((raw) => ({ raw })) },
    ),
    type: mediaType,
    upperHex: fc.boolean(),
  }),
);

// ---- what may come back ----

/** docs/providers.md's error-code table: code → status. */
function documentedCodes(): Map<string, number> {
  const guide = readFileSync(path.resolve(import.meta.dirname, '../../docs/providers.md'), 'utf8');
  const start = guide.indexOf('\n## Error codes\n');
  const section = guide.slice(start, guide.indexOf('\n## ', start + 1));
  return new Map([...section.matchAll(/^\| (\d{3}) \| `([A-Z_]+)` \|/gm)].map((m) => [m[2]!, Number(m[1])]));
}

/** An amount as cents when it is written as the API writes amounts (an optional minus, digits, up to 2 decimals). */
function centsOf(v: unknown): bigint | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^(-?)([0-9]+)(?:\.([0-9]{1,2}))?$/.exec(v);
  if (!m) return undefined;
  const n = BigInt(m[2]!) * 100n + BigInt((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -n : n;
}

const WRITTEN = /^-?(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/;
/** The documented range of a call's amount (docs/providers.md): bets 0.01–1,000,000.00, wins 0–9,999,999,999,999.99, corrections non-zero within ±9,999,999,999,999.99; "-0" is none of them. */
function inRange(op: Op, v: unknown): boolean {
  if (typeof v !== 'string' || !WRITTEN.test(v)) return false;
  const c = centsOf(v)!;
  const negative = v.startsWith('-');
  if (op === 'bets') return !negative && c >= 1n && c <= MAX_CENTS;
  if (op === 'wins') return !negative && c >= 0n && c <= MAX_WIN_CENTS;
  return c !== 0n && c >= -MAX_WIN_CENTS && c <= MAX_WIN_CENTS;
}

t.test(`the provider API fuzzed: ${CALLS} signed calls`, async (t) => {
  const stack = await startStack({ RPC_TIMEOUT_MS: '20000' });
  const launch = await startLaunchServer();
  const db = new pg.Client({ connectionString: stack.db.url });
  await db.connect();
  t.teardown(async () => {
    await db.end();
    await launch.close();
    await stack.close();
  });
  const opA = await stack.createOperator('Provider Fuzz A');
  const opB = await stack.createOperator('Provider Fuzz B');
  const admin = new AdminSide({ url: stack.adminUrl, token: ADMIN_TOKEN, retry: NO_RETRY });
  const casino: SimProvider = await admin.registerProvider({
    name: `Fuzzed casino ${randomBytes(3).toString('hex')}`,
    kind: 'casino',
    launchUrl: launch.url,
    operatorId: opA.operator.id,
    environment: 'sandbox',
  });
  await admin.call('PUT', `/admin/providers/${casino.providerId}/operators/${opB.operator.id}`, { enabled: true }, 200);

  // Players of both operators (the first three of A, the others of B), each funded and with a session.
  const players: Array<{ playerId: string; token: string; wallet: () => Promise<string> }> = [];
  for (let i = 0; i < PLAYERS; i++) {
    const op = i < 3 ? opA : opB;
    const side = new OperatorSide({ baseUrl: stack.publicUrl, ...op.sandbox, retry: NO_RETRY });
    const playerId = await side.fundedPlayer(`fuzz${i}`, FUNDS);
    const { sessionId } = await side.openSession(playerId, casino.games[0]!.id);
    players.push({ playerId, token: launch.launches.get(sessionId)!.token, wallet: async () => (await side.wallet(playerId)).available });
  }

  const resolve = (v: unknown): unknown => {
    if (v && typeof v === 'object' && 'player' in v) return v.player;
    if (v && typeof v === 'object' && 'literal' in v) return v.literal;
    return v;
  };
  const bodyOf = (c: Call): string => {
    if ('raw' in c.fields) return c.fields.raw as string;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(c.fields)) {
      if (v === undefined) continue;
      const r = resolve(v);
      out[k] = typeof r === 'number' && v && typeof v === 'object' && 'player' in v ? (k === 'token' ? players[r]!.token : players[r]!.playerId) : r;
    }
    return JSON.stringify(out);
  };

  const documented = documentedCodes();
  const serverErrors: string[] = [];
  const undocumented: string[] = [];
  const outOfRange: string[] = [];
  const moved = new Map<string, bigint>();
  const tally = new Map<string, number>();
  const send = async (c: Call) => {
    const body = bodyOf(c);
    const full = `${PROVIDER_API_PREFIX}/${c.op}`;
    const ts = String(Math.floor(Date.now() / 1000));
    const sig = signRequest(casino.secret, 'POST', full, ts, body);
    const headers: Record<string, string> = { 'x-provider-key': casino.key, 'x-timestamp': ts, 'x-signature': c.upperHex ? sig.toUpperCase() : sig };
    if (c.type !== undefined) headers['content-type'] = c.type;
    const res = await fetch(`${stack.publicUrl}${full}`, { method: 'POST', headers, body: body.length ? body : undefined }).catch((e: Error) => ({
      status: 0,
      text: async () => String(e),
    }));
    const text = await res.text();
    let parsed: any;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const what = `${c.op} ${body.slice(0, 200)} [${c.type}] → ${res.status} ${text.slice(0, 200)}`;
    const outcome = res.status === 200 ? '200' : `${res.status} ${parsed?.error?.code ?? '?'}`;
    tally.set(`${c.op} ${outcome}`, (tally.get(`${c.op} ${outcome}`) ?? 0) + 1);
    if (res.status >= 500 || res.status === 0) serverErrors.push(what);
    else if (res.status !== 200 && documented.get(parsed?.error?.code) !== res.status) undocumented.push(what);
    if (res.status !== 200 || c.op === 'authenticate' || c.op === 'balance') return;
    // An accepted money call: its request's amount within the range, the answer moving no more than it.
    const sent = JSON.parse(body) as Record<string, unknown>;
    if (c.op !== 'rollbacks' && !inRange(c.op, sent.amount)) outOfRange.push(what);
    const m = centsOf(parsed.moved);
    const asked = centsOf(sent.amount);
    const fits =
      m !== undefined &&
      (c.op === 'bets'
        ? m === -asked!
        : c.op === 'wins'
          ? m === asked
          : c.op === 'corrections'
            ? asked! > 0n
              ? m === asked
              : m <= 0n && m >= asked!
            : m >= 0n && m <= MAX_CENTS);
    if (!fits) outOfRange.push(`moved: ${what}`);
    if (!parsed.replayed) {
      const delta = m! - (centsOf(parsed.repaid) ?? 0n);
      moved.set(parsed.playerId, (moved.get(parsed.playerId) ?? 0n) + delta);
    }
  };

  const calls = fc.sample(call, { seed: SEED, numRuns: CALLS });
  t.equal(calls.length, CALLS);
  t.same(
    OPERATIONS.filter((op) => !calls.some((c) => c.op === op)),
    [],
    'every operation is among the calls',
  );
  const started = performance.now();
  for (let i = 0; i < calls.length; i += IN_FLIGHT) await Promise.all(calls.slice(i, i + IN_FLIGHT).map(send));
  t.comment(`${CALLS} calls in ${Math.round(performance.now() - started)} ms`);
  t.comment(JSON.stringify(Object.fromEntries([...tally].sort())));

  t.same(serverErrors.slice(0, 10), [], `no 5xx (${serverErrors.length})`);
  t.same(undocumented.slice(0, 10), [], `every refusal a code of docs/providers.md's table, at its status (${undocumented.length})`);
  t.same(outOfRange.slice(0, 10), [], `no amount outside its range accepted (${outOfRange.length})`);
  const accepted = [...tally].filter(([k]) => /^(bets|wins|rollbacks|corrections) 200$/.test(k)).reduce((n, [, v]) => n + v, 0);
  t.ok(accepted >= CALLS / 50, `money calls were accepted, not only refused (${accepted})`);

  // The money, afterwards: every row and ledger transaction of the provider within the ranges; each
  // player's wallet its deposit and what the accepted answers moved; the ledger verifies.
  const rows = await db.query<{ kind: string; transaction_id: string; requested: string; moved: string; never_received: boolean }>(
    `select kind, transaction_id, requested::text, moved::text, never_received from wallet.provider_transactions where provider_id = $1`,
    [casino.providerId],
  );
  const badRows = rows.rows.filter((r) => {
    const q = centsOf(r.requested)!;
    const m = centsOf(r.moved)!;
    if (m < -MAX_WIN_CENTS || m > MAX_WIN_CENTS) return true;
    if (r.kind === 'bet') return r.never_received ? q !== 0n : q > -1n || q < -MAX_CENTS || m !== q;
    if (r.kind === 'win') return q < 0n || q > MAX_WIN_CENTS || m !== q;
    if (r.kind === 'correction') return q === 0n || q < -MAX_WIN_CENTS || q > MAX_WIN_CENTS;
    return q < 0n || q > MAX_CENTS;
  });
  t.same(badRows.slice(0, 10), [], `every recorded transaction within its range (${rows.rows.length} rows)`);
  const ledger = await db.query<{ source: string; amount: string }>(
    `select t.source, e.amount::text from wallet.ledger_transactions t join wallet.ledger_entries e on e.transaction_id = t.id
     join wallet.accounts a on a.id = e.account_id and a.kind = 'player' where t.source like $1`,
    [`provider:${casino.providerId}:%`],
  );
  t.same(
    ledger.rows.filter((r) => centsOf(r.amount)! === 0n || centsOf(r.amount)! < -MAX_WIN_CENTS || centsOf(r.amount)! > MAX_WIN_CENTS),
    [],
    `every ledger transaction of the provider moves 0.01 to 9,999,999,999,999.99 either way (${ledger.rows.length})`,
  );
  const funds = centsOf(FUNDS)!;
  const wallets = await Promise.all(players.map(async (p) => `${p.playerId} ${await p.wallet()}`));
  t.same(
    wallets,
    players.map((p) => `${p.playerId} ${cents(funds + (moved.get(p.playerId) ?? 0n))}`),
    "each wallet is its deposit and what the accepted answers moved (the ledger's balance)",
  );
  const verified = await stack.admin('GET', '/admin/ledger/verify');
  t.match(
    verified.body,
    { ok: true, mismatches: [], unbalancedTransactions: [], sumOfAllBalances: '0.00' },
    'the ledger verifies: balanced, each balance its entries, each provider row its ledger transaction',
  );
});
