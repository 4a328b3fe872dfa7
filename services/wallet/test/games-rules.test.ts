// The games' plain rules without NATS or Postgres: launch tokens, eligibility order and the
// round rules of each built-in game with a scripted random source.
import t from 'tap';
import type { AppError, PlayerState } from '@bo/contracts';
import { createLaunchTokenSigner } from '../src/games/domain/launch-token.ts';
import { assertPlayerMayPlay } from '../src/games/domain/eligibility.ts';
import { checkRoundInput, decideCrash, decideDice, decideRoulette, decideSlots, SLOT_SYMBOLS, type Rng } from '../src/games/domain/rounds.ts';

/** Returns the scripted values in order and checks each lies in the range asked for. */
function scripted(...values: number[]): Rng {
  return {
    int(min, max) {
      const v = values.shift();
      if (v === undefined || v < min || v >= max) throw new Error(`scripted value ${v} outside [${min}, ${max})`);
      return v;
    },
  };
}

t.test('launch tokens', async (t) => {
  const signer = createLaunchTokenSigner('secret-of-at-least-16');
  const sessionId = 'gs_0123456789abcdef0123456789abcdef';
  const expiresAt = new Date('2030-01-01T00:30:00.000Z');
  const token = signer.sign({ sessionId, expiresAt });
  t.match(token, /^v1\.gs_[0-9a-f]{32}\.1893457800\.[A-Za-z0-9_-]{43}$/);
  t.same(signer.verify(token, new Date('2030-01-01T00:29:59.000Z')), { ok: true, claims: { sessionId, expiresAt } });
  t.same(signer.verify(token, new Date('2030-01-01T00:30:00.000Z')), { ok: false, reason: 'expired' }, 'expired at the second it ends');
  t.same(createLaunchTokenSigner('another-secret-xxxxx').verify(token, new Date(0)), { ok: false, reason: 'invalid' });
  const forgedLate = token.replace('.1893457800.', '.1893457700.');
  t.same(signer.verify(forgedLate, new Date('2031-01-01T00:00:00Z')), { ok: false, reason: 'invalid' }, 'a forged token is invalid, never "expired"');
  t.same(signer.verify(`${token}x`, new Date(0)), { ok: false, reason: 'invalid' });
  t.same(signer.verify(token.replace('gs_0', 'gs_1'), new Date(0)), { ok: false, reason: 'invalid' }, 'the session id is signed');
});

t.test('eligibility order: KYC, then self-exclusion, then status', async (t) => {
  const base: PlayerState = { exists: true, playerId: 'plr_1', status: 'ativo', kycStatus: 'aprovado', selfExcluded: false, selfExcludedUntil: null };
  const codeOf = (s: Partial<PlayerState>, now = new Date('2030-01-01T00:00:00Z')) => {
    try {
      assertPlayerMayPlay({ ...base, ...s }, now);
      return 'ok';
    } catch (e) {
      return (e as AppError).code;
    }
  };
  t.equal(codeOf({}), 'ok');
  t.equal(codeOf({ kycStatus: 'em_analise', status: 'suspenso', selfExcluded: true }), 'KYC_NOT_APPROVED');
  t.equal(codeOf({ status: 'suspenso', selfExcluded: true }), 'RG_BLOCKED');
  t.equal(codeOf({ selfExcludedUntil: '2030-01-02T00:00:00Z' }), 'RG_BLOCKED', 'a future date excludes even if the flag is stale');
  t.equal(codeOf({ selfExcludedUntil: '2029-12-31T00:00:00Z' }), 'ok', 'a past date does not');
  t.equal(codeOf({ status: 'autoexcluido' }), 'RG_BLOCKED');
  for (const status of ['suspenso', 'bloqueado', 'encerrado', 'restrito'] as const) t.equal(codeOf({ status }), 'PLAYER_NOT_ACTIVE', status);
});

t.test('crash', async (t) => {
  // u = 0 → 0.97 → clamped to 1.00; u = 2^31 → 1.94; u near 2^32 → capped.
  t.same(decideCrash('10.00', '1.50', scripted(0)), { win: false, payout: '0.00', outcome: { crashPoint: '1.00', target: '1.50' } });
  t.same(
    decideCrash('10.00', '1.94', scripted(2 ** 31)),
    { win: true, payout: '19.40', outcome: { crashPoint: '1.94', target: '1.94' } },
    'reaching the target exactly wins',
  );
  t.same(decideCrash('10.00', '1.95', scripted(2 ** 31)), { win: false, payout: '0.00', outcome: { crashPoint: '1.94', target: '1.95' } });
  t.equal(decideCrash('0.33', '3.33', scripted(2 ** 32 - 1)).payout, '1.09', '0.33 × 3.33 = 1.0989, paid rounded down');
  t.equal(decideCrash('1.00', '2', scripted(2 ** 32 - 1)).outcome.crashPoint, '10000.00');
});

t.test('dice', async (t) => {
  t.same(decideDice('10.00', 50, scripted(49)), { win: true, payout: '20.20', outcome: { roll: 49, target: 50, multiplier: '2.0204' } });
  t.same(decideDice('10.00', 50, scripted(50)), { win: false, payout: '0.00', outcome: { roll: 50, target: 50, multiplier: '2.0204' } });
  t.equal(decideDice('1.00', 2, scripted(1)).payout, '99.00');
  t.equal(decideDice('1.00', 2, scripted(100)).win, false);
});

t.test('roulette', async (t) => {
  t.same(decideRoulette('5.00', 'red', scripted(1)), { win: true, payout: '10.00', outcome: { number: 1, color: 'red', pick: 'red' } });
  t.same(decideRoulette('5.00', 'black', scripted(1)), { win: false, payout: '0.00', outcome: { number: 1, color: 'red', pick: 'black' } });
  for (const pick of ['red', 'black', 'odd', 'even', 'low', 'high'] as const) t.equal(decideRoulette('5.00', pick, scripted(0)).win, false, `0 loses ${pick}`);
  t.equal(decideRoulette('5.00', 'even', scripted(36)).win, true);
  t.equal(decideRoulette('5.00', 'high', scripted(19)).win, true);
  t.equal(decideRoulette('5.00', 'low', scripted(19)).win, false);
  t.equal(decideRoulette('5.00', 'black', scripted(2)).outcome.color, 'black');
});

t.test('slots', async (t) => {
  // Strip positions: cherry 0–5, lemon 6–10, orange 11–14, grape 15–17, bell 18–19, seven 20.
  t.same(decideSlots('1.00', scripted(20, 20, 20)), { win: true, payout: '500.00', outcome: { reels: ['seven', 'seven', 'seven'], multiplier: '500' } });
  t.same(decideSlots('1.00', scripted(0, 5, 3)), { win: true, payout: '8.00', outcome: { reels: ['cherry', 'cherry', 'cherry'], multiplier: '8' } });
  t.same(decideSlots('0.10', scripted(0, 6, 5)), { win: true, payout: '0.15', outcome: { reels: ['cherry', 'lemon', 'cherry'], multiplier: '1.5' } });
  t.same(decideSlots('1.00', scripted(0, 6, 11)), { win: false, payout: '0.00', outcome: { reels: ['cherry', 'lemon', 'orange'], multiplier: '0' } });
  // Return to player over every equally likely reel combination, as documented (≈ 97.9%).
  const w = SLOT_SYMBOLS.reduce((s, x) => s + x.weight, 0);
  let paid = 0;
  for (let a = 0; a < w; a++) for (let b = 0; b < w; b++) for (let c = 0; c < w; c++) paid += Number(decideSlots('100.00', scripted(a, b, c)).payout);
  const rtp = paid / (100 * w ** 3);
  t.ok(rtp > 0.97 && rtp < 0.99, `slots RTP ${rtp.toFixed(4)}`);
});

t.test('round input checks per game', async (t) => {
  const paths = (kind: Parameters<typeof checkRoundInput>[0], input: any) => checkRoundInput(kind, input).map((i) => i.path);
  t.same(paths('crash', { amount: '1.00', target: '1.01' }), []);
  t.same(paths('crash', { amount: '1.00', target: '100.01' }), ['/target']);
  t.same(paths('dice', { amount: '1.00', target: '1.5' }), ['/target']);
  t.same(paths('dice', { amount: '1.00', target: '97' }), ['/target']);
  t.same(paths('dice', { amount: '1.00', target: '96' }), []);
  t.same(paths('roulette', { amount: '1.00' }), ['/pick']);
  t.same(paths('slots', { amount: '0.10' }), []);
  t.same(paths('slots', { amount: '0.09' }), ['/amount']);
  t.same(paths('slots', { amount: '1000.00' }), []);
});
