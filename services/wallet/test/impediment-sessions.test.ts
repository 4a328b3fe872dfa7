// An impediment hit ends the player's open game sessions (issue 27, docs/eligibility.md), as a
// self-exclusion does, with the real players service and this wallet on real Postgres and NATS: a
// player found on our internal impediments registry at the first login of the day, one found when
// the wallet asks before the day's first new game session, one found by the sweep, and one whose CPF
// our team puts on the list each have their open session ended by the wallet (its row expired, its
// launch token refused); another player's session stays open.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { waitFor } from '@bo/service-kit/testing';
import {
  BR_SPA_LIMITS,
  adminScope,
  assertLedgerSound,
  createPlayer,
  gatewayScope,
  operatorScope,
  paymentsScope,
  playersService,
  startStack,
  tokenOf,
} from '@bo/test-support';
import { walletService } from '../src/service.ts';

t.test('an impediment hit ends the open game sessions', async (t) => {
  const stack = await startStack(t, 'impsess', []);
  // The loops every 50 ms: the sweep below starts as soon as it is due.
  await stack.start(playersService, { IMPEDIMENT_LOOP_MS: 50 });
  await stack.start(walletService);
  const { call } = stack;
  const live = operatorScope('imp', 'production');
  const sql = <T = any>(q: string, p: unknown[] = []) => stack.services.get('wallet')!.sql.query(q, p) as Promise<T[]>;
  const cpfOf = async (playerId: string) =>
    ((await stack.services.get('players')!.sql.query('select cpf from players.players where id = ?', [playerId])) as Array<{ cpf: string }>)[0]!.cpf;
  const statusOf = async (playerId: string) =>
    ((await stack.services.get('players')!.sql.query('select status from players.players where id = ?', [playerId])) as Array<{ status: string }>)[0]!.status;
  const put = (cpf: string, category: string) =>
    call<{ entry: unknown; restricted: string[] }>('players.admin.impediments.add', { scope: adminScope, body: { cpf, category, note: 'filed by the test' } });
  const openSession = async (playerId: string) => {
    const r = await call<{ id: string; gameUrl: string }>('games.sessions.create', { scope: live, params: { playerId }, body: { gameId: 'gm_dice_classic' } });
    if (!r.ok) throw new Error(`session: ${JSON.stringify(r)}`);
    return r.body;
  };
  const ended = async (sessionId: string) =>
    (await sql<{ ended: boolean }>('select expires_at <= now() as ended from wallet.game_sessions where id = ?', [sessionId]))[0]!.ended;
  const round = async (gameUrl: string) => {
    const r = await call('games.play.round', {
      scope: gatewayScope,
      params: { token: tokenOf(gameUrl) },
      body: { amount: '1.00', target: '50', clientRoundId: `click-${randomBytes(6).toString('hex')}` },
    });
    return r.ok ? `ok:${r.status}` : r.error.code;
  };

  // Players of an operator under `off`, each with an open real-money session; two of them filed on
  // our internal list while the operator was `off` (nobody restricted then); br-spa switched on after.
  const [atLogin, atSession, bySweep, byListing, other] = await Promise.all(
    [0, 1, 2, 3, 4].map(() => createPlayer(call, live, { kyc: 'aprovado', limits: BR_SPA_LIMITS })),
  );
  const sessions = {
    atLogin: await openSession(atLogin!),
    atSession: await openSession(atSession!),
    bySweep: await openSession(bySweep!),
    byListing: await openSession(byListing!),
    other: await openSession(other!),
  };
  for (const p of [atLogin!, atSession!, bySweep!]) {
    const filed = await put(await cpfOf(p), 'athlete');
    t.same(filed.ok && filed.body.restricted, [], 'filed under `off`: nobody restricted');
  }
  const brSpa = await call('players.admin.setCompliance', {
    scope: adminScope,
    params: { id: live.operatorId },
    body: { profile: 'br-spa', reason: 'the operator is licensed in Brazil' },
  });
  t.equal(brSpa.ok, true, 'br-spa switched on');

  t.test('at the first login of the day', async (t) => {
    const login = await call('players.logins.report', { scope: live, params: { playerId: atLogin! } });
    t.equal(login.ok ? 'ok' : login.error.code, 'PLAYER_IMPEDED', 'the login is refused');
    t.equal(await statusOf(atLogin!), 'restrito', 'the player is restricted');
    t.equal(await ended(sessions.atLogin.id), true, 'the open session ended before the answer');
    t.equal(await round(sessions.atLogin.gameUrl), 'GAME_SESSION_ENDED', 'its launch token is refused: the session ended');
  });

  t.test("at the day's first game session with no login: the wallet's own question ends its other sessions", async (t) => {
    const refused = await call('games.sessions.create', { scope: live, params: { playerId: atSession! }, body: { gameId: 'gm_dice_classic' } });
    t.match(refused.ok ? 'ok' : refused.error, { code: 'PLAYER_IMPEDED' }, 'the new session is refused');
    t.equal(await statusOf(atSession!), 'restrito', 'the player is restricted');
    t.equal(await ended(sessions.atSession.id), true, 'the session opened before ended (the wallet answered players while it waited on them)');
    t.equal(await round(sessions.atSession.gameUrl), 'GAME_SESSION_ENDED', 'its launch token is refused: the session ended');
  });

  t.test('in the sweep', async (t) => {
    // Every sweep so far finished: start the next one now.
    await stack.services.get('players')!.sql.query('delete from players.impediment_sweeps');
    await waitFor(async () => ended(sessions.bySweep.id), { what: 'the swept player’s session ended' });
    t.equal(await statusOf(bySweep!), 'restrito', 'the sweep restricted the listed player');
    t.equal(await round(sessions.bySweep.gameUrl), 'GAME_SESSION_ENDED', 'its launch token is refused: the session ended');
  });

  t.test('when our team puts the CPF on the list', async (t) => {
    const filed = await put(await cpfOf(byListing!), 'referee');
    t.same(filed.ok && filed.body.restricted, [byListing], 'restricted at once');
    t.equal(await ended(sessions.byListing.id), true, 'the open session ended before the answer');
    t.equal(await round(sessions.byListing.gameUrl), 'GAME_SESSION_ENDED', 'its launch token is refused: the session ended');
  });

  t.test("another player's session stays open", async (t) => {
    t.equal(await statusOf(other!), 'ativo', 'not restricted');
    t.equal(await ended(sessions.other.id), false, 'its session is open');
    const credited = await call('wallet.credit', {
      scope: paymentsScope,
      body: { brandId: live.brandId, playerId: other, currency: 'BRL', amount: '10.00', depositId: `dep_test_${randomBytes(6).toString('hex')}` },
    });
    t.equal(credited.ok, true, 'funded');
    t.equal(await round(sessions.other.gameUrl), 'ok:201', 'its launch token still opens rounds');
    await assertLedgerSound(t, stack);
  });
});
