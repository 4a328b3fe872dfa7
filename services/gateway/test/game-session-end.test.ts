// Issue #66 item 9: ending a game session, through the real gateway to the real wallet and players
// services on real Postgres and NATS. The operator ends one session (the player logged out) or all of a
// player's: at once its page is 410 and a provider's bets on its token are refused, in each protocol's
// closest status (native /provider/v1 401 SESSION_TOKEN_EXPIRED, Hub88 RS_ERROR_TOKEN_EXPIRED, Evolution
// INVALID_SID, Betsy code 4), while the wins and rollbacks of bets already taken settle (the balance and
// the ledger checked); idempotent; another operator's or environment's session is 404; the envelope's
// validation errors. Our team's end through the admin API (audited, role checked). After a self-exclusion
// or a pause a provider's bets are refused with the reason and its wins still settle.
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes, randomUUID } from 'node:crypto';
import { betsySignature, signRequest, type OperatorScope } from '@bo/contracts';
import { startEvolutionStandin, startFakeProvider, startGamesStack, startHub88Standin } from '@bo/test-support';
import { gamesServices } from '@bo/wallet/testing';
import { startHarness } from './support/harness.ts';
import { hub88Units, setUpHub88Connector } from './support/hub88-connector.ts';

const uuid = () => randomUUID();
const hex = () => randomBytes(6).toString('hex');
const units = hub88Units;

t.test('ending game sessions', async (t) => {
  // A deadline no call of a busy machine reaches: these tests are about answers, not about timeouts.
  const h = await startHarness({ RPC_TIMEOUT_MS: '30000' });
  t.teardown(() => h.close());
  const gw = h.gateways[0]!;
  const games = await startGamesStack(t, gamesServices, { PUBLIC_BASE_URL: gw.publicUrl }, { prefix: h.prefix });
  const op = await h.createOperator({ name: `Ending Casino ${hex()}` });
  const other = await h.createOperator({ name: `Other Casino ${hex()}` });
  const api = op.productionClient;
  const me = await api.get('/me');
  const live: OperatorScope = { kind: 'operator', operatorId: op.operator.id, brandId: me.body.brand.id, environment: 'production', currency: 'BRL' };

  const admin = async (method: string, path: string, body?: unknown) => {
    const r = await h.admin(method, path, body);
    if (r.status !== 200 && r.status !== 201) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  // A signature is accepted with one Idempotency-Key only (401 SIGNATURE_REUSED): each call signs its own
  // X-Timestamp, a second earlier than the last and before any other call's (the same request under
  // another key within a second included); a few dozen calls stay well within the 300 s allowed.
  const before = Math.floor(Date.now() / 1000);
  let signed = 0;
  const idem = () => ({ 'idempotency-key': `end-${uuid()}`, 'x-timestamp': String(before - ++signed) });
  const endOne = (player: string, session: string, headers: Record<string, string> = idem(), client = api) =>
    client.post(`/players/${player}/game-sessions/${session}/end`, {}, headers);
  const endAll = (player: string, headers: Record<string, string> = idem()) => api.post(`/players/${player}/game-sessions/end`, {}, headers);
  const funded = async (funds = '100.00') => {
    const player = await games.createPlayer(live, { kyc: 'aprovado' });
    await games.credit(live, player, funds);
    return player;
  };
  const open = async (player: string, gameId: string) => {
    const r = await api.post(`/players/${player}/game-sessions`, { gameId });
    if (r.status !== 201) throw new Error(`game session: ${r.status} ${r.text}`);
    return r.body as { id: string; gameUrl: string };
  };
  const available = async (player: string) => (await api.get(`/players/${player}/wallet`)).body.available as string;
  const ledgerSound = async (t: Test) => {
    const v = await games.verifyLedger();
    t.same({ ok: v.ok, mismatches: v.mismatches }, { ok: true, mismatches: [] }, 'verifyLedger holds');
  };
  const providerSessionEnded = async (sessionId: string) =>
    (
      await games.sql<{ ended: boolean }>(
        'select bool_and(ended_at is not null and expires_at <= now()) as ended from wallet.provider_sessions where game_session_id = ?',
        [sessionId],
      )
    )[0]!.ended;

  t.test("the operator's end: at once, idempotent, tenant-scoped, validated", async (t) => {
    const player = await funded();
    const s = await open(player, 'gm_dice_classic');
    t.equal((await fetch(s.gameUrl)).status, 200, 'the page plays before the end');
    const first = await endOne(player, s.id, { ...idem(), 'idempotency-key': 'end-first-call-1' });
    t.equal(first.status, 200, 'ended: 200');
    t.match(first.body, { id: s.id, playerId: player, gameId: 'gm_dice_classic', mode: 'real', createdAt: String, endedAt: String }, 'the ended session');
    t.same(Object.keys(first.body).sort(), ['createdAt', 'endedAt', 'gameId', 'id', 'mode', 'playerId'], 'nothing else');
    const page = await fetch(s.gameUrl);
    t.equal(page.status, 410, 'its page is 410 at once');
    t.match(await page.text(), /This game session has ended/, 'and says it ended');
    const round = await fetch(`${s.gameUrl}/rounds`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '1.00', target: '50', clientRoundId: `click-${hex()}` }),
    });
    t.same([round.status, ((await round.json()) as any).error.code], [410, 'GAME_SESSION_ENDED'], 'a round is refused');
    t.equal(await available(player), '100.00', 'nothing moved');

    const replay = await endOne(player, s.id, { ...idem(), 'idempotency-key': 'end-first-call-1' });
    t.same([replay.status, replay.headers.get('idempotent-replayed'), replay.body], [200, 'true', first.body], 'the same key: the stored answer');
    const again = await endOne(player, s.id);
    t.same([again.status, again.body.endedAt], [200, first.body.endedAt], 'ended again under a new key: answered as it ended');

    const someone = await funded();
    const notTheirs = await endOne(someone, s.id);
    t.same([notTheirs.status, notTheirs.body.error.code], [404, 'GAME_SESSION_NOT_FOUND'], "another player's session");
    t.equal(notTheirs.body.error.requestId, notTheirs.headers.get('x-request-id'), 'in the envelope, with its request id');
    const unknown = await endOne(player, 'gs_01934b7e8c8e7c3a9f2d1b0a00000000');
    t.same([unknown.status, unknown.body.error.code], [404, 'GAME_SESSION_NOT_FOUND'], 'no such session');
    const otherOperator = await endOne(player, s.id, idem(), other.productionClient);
    t.same([otherOperator.status, otherOperator.body.error.code], [404, 'PLAYER_NOT_FOUND'], "another operator's player and session");
    const sandbox = await endOne(player, s.id, idem(), op.sandboxClient);
    t.same([sandbox.status, sandbox.body.error.code], [404, 'PLAYER_NOT_FOUND'], "the sandbox key: production's player is not its");

    const { 'idempotency-key': _, ...noKeyHeaders } = idem();
    const noKey = await endOne(player, s.id, noKeyHeaders);
    t.same([noKey.status, noKey.body.error.code], [400, 'IDEMPOTENCY_KEY_REQUIRED'], 'an Idempotency-Key is required');
    const notObject = await api.request('POST', `/players/${player}/game-sessions/${s.id}/end`, '[1]', idem());
    t.match([notObject.status, notObject.body.error], [422, { code: 'VALIDATION_ERROR', details: { in: 'body' } }], 'a body that is not an object');
    const longId = await endOne(player, `gs_${'x'.repeat(62)}`);
    t.match(
      [longId.status, longId.body.error],
      [422, { code: 'VALIDATION_ERROR', details: { in: 'path', issues: [{ path: '/sessionId' }] } }],
      'a session id over 64 characters',
    );
    const empty = await api.request('POST', `/players/${player}/game-sessions/${s.id}/end`, '', idem());
    t.equal(empty.status, 200, 'an absent body counts as {}');
  });

  t.test("the operator's end of all of a player's open sessions", async (t) => {
    const player = await funded();
    const a = await open(player, 'gm_dice_classic');
    const b = await open(player, 'gm_roulette_demo');
    const ended = await endAll(player);
    t.equal(ended.status, 200);
    t.same(ended.body.data.map((s: { id: string }) => s.id).sort(), [a.id, b.id].sort(), 'both open sessions ended');
    t.same([(await fetch(a.gameUrl)).status, (await fetch(b.gameUrl)).status], [410, 410], 'both pages are 410');
    const again = await endAll(player);
    t.same([again.status, again.body.data], [200, []], 'none left open: an empty list');
    const otherOperator = await other.productionClient.post(`/players/${player}/game-sessions/end`, {}, idem());
    t.same([otherOperator.status, otherOperator.body.error.code], [404, 'PLAYER_NOT_FOUND'], "another operator's player");
  });

  t.test("our team's end: audited with the reason, role checked", async (t) => {
    const player = await funded();
    const s = await open(player, 'gm_dice_classic');
    const tokenOf = async (role: string) => (await admin('POST', '/admin/tokens', { name: `${role}-${hex()}`, role })).secret as string;
    const as = (secret: string, body: unknown) =>
      fetch(`${gw.adminUrl}/admin/players/${player}/game-sessions/end`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const byFinance = await as(await tokenOf('finance'), { brandId: live.brandId, reason: 'asked by the operator' });
    t.equal(byFinance.status, 403, 'finance may not');
    t.equal((await fetch(s.gameUrl)).status, 200, 'the session still open');
    const support = await tokenOf('support');
    const noReason = await as(support, { brandId: live.brandId });
    t.match([noReason.status, ((await noReason.json()) as any).error], [422, { code: 'VALIDATION_ERROR', details: { in: 'body' } }], 'a reason is required');
    const wrongBrand = await as(support, { brandId: 'brd_nope', reason: 'asked by the operator' });
    t.same([wrongBrand.status, ((await wrongBrand.json()) as any).error.code], [404, 'PLAYER_NOT_FOUND'], 'another brand: no such player');
    const bySupport = await as(support, { brandId: live.brandId, reason: 'asked by the operator' });
    t.equal(bySupport.status, 200, 'support may');
    t.same(
      ((await bySupport.json()) as any).data.map((x: { id: string }) => x.id),
      [s.id],
      'the open session ended',
    );
    t.equal((await fetch(s.gameUrl)).status, 410, 'its page is 410');
    const audits = (await games.sql<{ payload: string }>("select payload from wallet.outbox where subject_type = 'audit.recorded' order by seq"))
      .map((r) => JSON.parse(r.payload).data)
      .filter((a: { target: string }) => a.target === `player:${player}`);
    t.equal(audits.length, 1, 'one audit row');
    t.match(audits[0], { action: 'adminEndGameSessions', after: { ended: [s.id], reason: 'asked by the operator' }, before: { openSessions: [s.id] } });
  });

  // ---- the providers: one of each protocol, offered to the operator ----
  const fake = await startFakeProvider(t);
  const native = await admin('POST', '/admin/providers', { name: `Native ${hex()}`, kind: 'casino', launchUrl: fake.url });
  const nativeGame = await admin('PUT', `/admin/providers/${native.id}/games/sweet-fruits`, { name: 'Sweet Fruits', category: 'slots' });
  await admin('PUT', `/admin/providers/${native.id}/operators/${live.operatorId}`, { enabled: true });
  const nativeKey = await admin('POST', `/admin/providers/${native.id}/credentials`, { environment: 'production' });
  const nativeCall = async (path: string, body: unknown) => {
    const raw = JSON.stringify(body);
    const ts = String(Math.floor(Date.now() / 1000));
    const res = await fetch(`${gw.publicUrl}/provider/v1${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-provider-key': nativeKey.key,
        'x-timestamp': ts,
        'x-signature': signRequest(nativeKey.secret, 'POST', `/provider/v1${path}`, ts, raw),
      },
      body: raw,
    });
    return { http: res.status, body: (await res.json()) as any };
  };

  const hub88 = await startHub88Standin(t, [{ game_code: 'clt_dragonrising', name: 'Dragon Rising', category: 'Video Slots', enabled: true }]);
  const hub88Connector = await setUpHub88Connector(h, hub88, { operatorId: live.operatorId, name: `Hub88 ${hex()}` });
  const dragon = { id: hub88Connector.gameId('clt_dragonrising') };
  const hub88Call = hub88Connector.call;

  const evo = await startEvolutionStandin(t);
  const evoProvider = await admin('POST', '/admin/providers', { name: `Evolution ${hex()}`, kind: 'casino', protocol: 'evolution' });
  const E = `/admin/providers/${evoProvider.id}/connector`;
  await admin('PUT', `${E}/production`, { settings: { casinoKey: evo.casinoKey, apiBaseUrl: evo.url } });
  await admin('POST', `${E}/production/secrets`, { name: 'authToken', value: evo.authToken });
  await admin('POST', `${E}/production/secrets`, { name: 'casinoToken', value: evo.casinoToken });
  const evoTable = await admin('PUT', `/admin/providers/${evoProvider.id}/games/vctlz20yfnmp1ylr`, { name: 'Lightning Roulette', category: 'live' });
  await admin('PUT', `/admin/providers/${evoProvider.id}/operators/${live.operatorId}`, { enabled: true });
  const evoCall = async (path: string, body: unknown) => {
    const res = await fetch(`${gw.publicUrl}/connectors/evolution/${evoProvider.id}/production${path}?authToken=${encodeURIComponent(evo.authToken)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as any;
  };

  const betsySecret = `ps_${randomBytes(16).toString('hex')}`;
  const betsyProvider = await admin('POST', '/admin/providers', { name: `Betsy ${hex()}`, kind: 'sportsbook', protocol: 'betsy' });
  const B = `/admin/providers/${betsyProvider.id}/connector`;
  await admin('PUT', `${B}/production`, { settings: { frameUrl: 'https://sports.operator.test/betsy-frame' } });
  await admin('POST', `${B}/production/secrets`, { name: 'partnerSecret', value: betsySecret });
  const sportsbook = await admin('PUT', `/admin/providers/${betsyProvider.id}/games/sportsbook`, { name: 'Sportsbook', category: 'sports' });
  await admin('PUT', `/admin/providers/${betsyProvider.id}/operators/${live.operatorId}`, { enabled: true });
  const betsyCall = async (method: 'POST' | 'PUT', path: string, body: unknown) => {
    const raw = JSON.stringify(body);
    const res = await fetch(`${gw.publicUrl}/connectors/betsy/${betsyProvider.id}/production${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-sign-jws': betsySignature(raw, betsySecret) },
      body: raw,
    });
    return { http: res.status, body: (await res.json()) as any };
  };

  /** The session token the provider got at launch. */
  const tokenOf = async (gameId: string, sessionId: string): Promise<string> => {
    if (gameId === nativeGame.id) return String(fake.requests.at(-1)!.body.token);
    if (gameId === dragon.id) return String(hub88.gameUrlRequests.at(-1)!.body.token);
    if (gameId === evoTable.id) return String(evo.launches.at(-1)!.body.player.session.id);
    const [row] = await games.sql<{ provider_url: string }>('select provider_url from wallet.game_sessions where id = ?', [sessionId]);
    return new URL(row!.provider_url).searchParams.get('token')!;
  };

  /**
   * Each protocol: two bets taken (10.00 and 5.00 of 100.00), the session ended by the operator, a third
   * bet refused in the protocol's status, then the first bet's win (25.00) and the second's rollback
   * paid: 115.00, and the ledger sound.
   */
  interface Protocol {
    name: string;
    gameId: () => string;
    bet(s: { player: string; token: string }, round: string, amount: string): Promise<{ ok: boolean; status: string }>;
    win(s: { player: string; token: string }, bet: Placed, amount: string): Promise<string>;
    rollback(s: { player: string; token: string }, bet: Placed): Promise<string>;
    refused: string;
    ok: string;
  }
  interface Placed {
    transactionId: string;
    round: string;
    body: any;
  }
  const protocols: Protocol[] = [
    {
      name: 'native /provider/v1',
      gameId: () => nativeGame.id,
      async bet(s, round, amount) {
        const body = { transactionId: `bet-${hex()}`, token: s.token, roundId: round, gameCode: 'sweet-fruits', amount, currency: 'BRL' };
        const r = await nativeCall('/bets', body);
        (this as any).last = body;
        return { ok: r.http === 200, status: r.http === 200 ? 'OK' : `${r.http} ${r.body.error.code}` };
      },
      async win(s, bet, amount) {
        const r = await nativeCall('/wins', {
          transactionId: `win-${hex()}`,
          playerId: s.player,
          roundId: bet.round,
          amount,
          currency: 'BRL',
          roundClosed: true,
        });
        return r.http === 200 ? 'OK' : `${r.http} ${r.body.error.code}`;
      },
      async rollback(s, bet) {
        const r = await nativeCall('/rollbacks', { transactionId: `rb-${hex()}`, playerId: s.player, betTransactionId: bet.transactionId, roundId: bet.round });
        return r.http === 200 ? 'OK' : `${r.http} ${r.body.error.code}`;
      },
      refused: '401 SESSION_TOKEN_EXPIRED',
      ok: 'OK',
    },
    {
      name: 'Hub88',
      gameId: () => dragon.id,
      async bet(s, round, amount) {
        const body = {
          user: s.player,
          transaction_uuid: uuid(),
          supplier_transaction_id: uuid(),
          token: s.token,
          round,
          round_closed: false,
          request_uuid: uuid(),
          is_free: false,
          is_aggregated: false,
          game_code: 'clt_dragonrising',
          currency: 'BRL',
          bet: 'zero',
          amount: units(amount),
        };
        (this as any).last = body;
        return { ok: true, status: (await hub88Call('/transaction/bet', body)).status };
      },
      async win(s, bet, amount) {
        const body = {
          ...bet.body,
          transaction_uuid: uuid(),
          request_uuid: uuid(),
          reference_transaction_uuid: bet.transactionId,
          round_closed: true,
          amount: units(amount),
        };
        return (await hub88Call('/transaction/win', body)).status;
      },
      async rollback(s, bet) {
        const body = {
          user: s.player,
          transaction_uuid: uuid(),
          supplier_transaction_id: uuid(),
          token: s.token,
          round: bet.round,
          round_closed: true,
          request_uuid: uuid(),
          reference_transaction_uuid: bet.transactionId,
          game_code: 'clt_dragonrising',
        };
        return (await hub88Call('/transaction/rollback', body)).status;
      },
      refused: 'RS_ERROR_TOKEN_EXPIRED',
      ok: 'RS_OK',
    },
    {
      name: 'Evolution',
      gameId: () => evoTable.id,
      async bet(s, round, amount) {
        const body = {
          sid: s.token,
          userId: s.player,
          currency: 'BRL',
          game: { id: round, type: 'roulette', details: { table: { id: 'vctlz20yfnmp1ylr', vid: 'vctlz20yfnmp1ylr' } } },
          transaction: { id: hex(), refId: hex(), amount: Number(amount) },
          uuid: uuid(),
        };
        (this as any).last = body;
        return { ok: true, status: (await evoCall('/debit', body)).status };
      },
      async win(_s, bet, amount) {
        return (await evoCall('/credit', { ...bet.body, transaction: { id: hex(), refId: bet.body.transaction.refId, amount: Number(amount) }, uuid: uuid() }))
          .status;
      },
      async rollback(_s, bet) {
        return (await evoCall('/cancel', { ...bet.body, uuid: uuid() })).status;
      },
      refused: 'INVALID_SID',
      ok: 'OK',
    },
    {
      name: 'Betsy',
      gameId: () => sportsbook.id,
      async bet(s, _round, amount) {
        const body = {
          token: s.token,
          transactionId: uuid(),
          currency: 'BRL',
          amount: Number(amount),
          userId: s.player,
          info: 'bet info',
          type: 1,
          coefficient: 2.5,
          ip: '203.0.113.7',
          subPartnerId: null,
          requestId: uuid(),
          bonusId: null,
          bonusTemplateId: null,
          bonusAmount: null,
          gameType: 'sportsbook',
          ticketType: 'single',
          boosterCoefficient: 1,
          metadata: [
            {
              disciplineId: 'football',
              discipline: 'Football',
              tournamentId: '325',
              tournament: 'Brasileirão',
              eventId: hex(),
              event: 'Flamengo x Palmeiras',
              eventDate: '2026-11-22 19:00:00',
              marketId: 'm1',
              market: 'Match Winner',
              outcomeId: '1',
              outcome: 'Flamengo',
              coefficient: 2.5,
              stage: 1,
            },
          ],
        };
        (this as any).last = body;
        const r = await betsyCall('POST', '/payment/bet', body);
        return { ok: r.http === 200, status: r.http === 200 ? 'OK' : `code ${r.body.code}` };
      },
      async win(_s, bet, amount) {
        const b = bet.body;
        const r = await betsyCall('PUT', '/payment/bet', {
          transactionId: b.transactionId,
          userId: b.userId,
          currency: b.currency,
          amount: Number(amount),
          type: 2,
          resultType: 'won',
          requestId: uuid(),
        });
        return r.http === 200 ? 'OK' : `code ${r.body.code}`;
      },
      async rollback(_s, bet) {
        const r = await betsyCall('PUT', '/payment/bet', { ...bet.body, type: 3, errorCode: 8, requestId: uuid() });
        return r.http === 200 ? 'OK' : `code ${r.body.code}`;
      },
      refused: 'code 4',
      ok: 'OK',
    },
  ];

  for (const p of protocols) {
    t.test(`${p.name}: after the operator's end a bet is refused, the win and the rollback of bets taken still settle`, async (t) => {
      const player = await funded();
      const session = await open(player, p.gameId());
      const s = { player, token: await tokenOf(p.gameId(), session.id) };
      const placed = async (amount: string): Promise<Placed> => {
        const round = `round-${hex()}`;
        const r = await p.bet(s, round, amount);
        t.equal(r.status, p.ok, `a bet of ${amount} taken`);
        const body = (p as any).last;
        return {
          transactionId: body.transactionId ?? body.transaction_uuid ?? body.transaction.id,
          round: body.roundId ?? body.round ?? body.game?.id ?? body.transactionId,
          body,
        };
      };
      const first = await placed('10.00');
      const second = await placed('5.00');
      t.equal(await available(player), '85.00', 'both stakes debited');

      const ended = await endOne(player, session.id);
      t.equal(ended.status, 200, 'the operator ends the session');
      t.ok(await providerSessionEnded(session.id), 'its provider session ended with it');
      const refused = await p.bet(s, `round-${hex()}`, '1.00');
      t.equal(refused.status, p.refused, `a bet after the end: ${p.refused}`);
      t.equal(await available(player), '85.00', 'the refused bet moved nothing');

      t.equal(await p.win(s, first, '25.00'), p.ok, "the first bet's win still settles");
      t.equal(await p.rollback(s, second), p.ok, "the second bet's rollback still settles");
      t.equal(await available(player), '115.00', '85.00 + 25.00 won + 5.00 back');
      const types = ((await api.get(`/players/${player}/transactions?limit=10`)).body.data as Array<{ type: string; amount: string }>).map(
        (e) => `${e.type} ${e.amount}`,
      );
      t.equal(types.length, 5, 'the deposit, two bets, the win and the rollback: nothing for the refused bet');
      await ledgerSound(t);
    });
  }

  t.test("a self-exclusion and a pause: the provider's bets refused with the reason, its win still settles", async (t) => {
    // Our games' sessions end on a self-exclusion (and an impediment hit); a provider session is left as
    // it is: each bet re-checks the player, and the refusal names the reason (a pause leaves ours open too).
    for (const [what, change, why] of [
      ['self-exclusion', (player: string) => api.post(`/players/${player}/self-exclusion`, { months: 1 }, idem()), 'self_excluded'],
      ['pause', (player: string) => api.post(`/players/${player}/pause`, { until: new Date(Date.now() + 48 * 3_600_000).toISOString() }, idem()), 'paused'],
    ] as const) {
      const player = await funded();
      const session = await open(player, nativeGame.id);
      const token = await tokenOf(nativeGame.id, session.id);
      const bet = await nativeCall('/bets', {
        transactionId: `bet-${hex()}`,
        token,
        roundId: `round-${hex()}`,
        gameCode: 'sweet-fruits',
        amount: '10.00',
        currency: 'BRL',
      });
      t.equal(bet.http, 200, `${what}: a bet taken before`);
      const r = await change(player);
      t.equal(r.status, 200, `${what}: answered`);
      const next = await nativeCall('/bets', {
        transactionId: `bet-${hex()}`,
        token,
        roundId: `round-${hex()}`,
        gameCode: 'sweet-fruits',
        amount: '1.00',
        currency: 'BRL',
      });
      t.same([next.http, next.body.error?.code, next.body.error?.details?.reason], [403, 'RG_BLOCKED', why], `${what}: the next bet refused with the reason`);
      const win = await nativeCall('/wins', {
        transactionId: `win-${hex()}`,
        playerId: player,
        roundId: bet.body.roundId,
        amount: '12.00',
        currency: 'BRL',
        roundClosed: true,
      });
      t.equal(win.http, 200, `${what}: the win of the bet taken still settles`);
      t.equal(await available(player), '102.00', `${what}: 100.00 − 10.00 + 12.00`);
    }
    await ledgerSound(t);
  });
});
