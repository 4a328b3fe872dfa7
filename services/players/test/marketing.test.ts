// No marketing to excluded bettors (issue #60 item 2; docs/players.md, "Marketing permission"): the
// bettor's consent, given at registration or through PUT /players/{playerId}/marketing-consent and
// withdrawn the same way; forced off by a self-exclusion, a pause, an impediment restriction or the
// closing, and not given again while one lasts (409 MARKETING_BLOCKED); each change told by
// `player.marketing_changed` and kept with who and when; the daily suppression list per brand names
// who must not be contacted that day, with why (the operator's and our team's).
import t from 'tap';
import { END_PLAYER_SESSIONS_SUBJECT, PAYMENTS_RG_USAGE_SUBJECT, WALLET_RG_USAGE_SUBJECT, rpcSubject } from '@bo/contracts';
import type { OperatorScope } from '@bo/contracts';
import { randomCpf } from '@bo/service-kit/testing';
import { REGISTRATION_DATA, REQUIRED_LIMITS, admin, errorCode, newKey, okBody, scopes, setComplianceProfile, startPlayers, validPlayer } from './harness.ts';

const DAY = 86_400_000;
const today = (at = new Date()) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

t.test('marketing permission and the suppression list', async (t) => {
  const h = await startPlayers(t, 'marketing');
  const live: OperatorScope = scopes.aProduction;
  // Payments' and the wallet's answers the RG views and a block's end of game sessions ask for.
  const fake = (subject: string, body: unknown) =>
    h.svc.nc.subscribe(rpcSubject(h.prefix, subject), {
      callback: (_err, msg) => {
        msg.respond(JSON.stringify({ ok: true, status: 200, body }));
      },
    });
  const subs = [fake(PAYMENTS_RG_USAGE_SUBJECT, { usage: [] }), fake(WALLET_RG_USAGE_SUBJECT, { usage: [] }), fake(END_PLAYER_SESSIONS_SUBJECT, { ended: 0 })];
  t.teardown(() => {
    for (const s of subs) s.unsubscribe();
  });
  okBody(t, await setComplianceProfile(h, live.operatorId, 'br-spa'), 200);
  const register = async (externalId: string, body: Record<string, unknown> = {}) =>
    okBody<any>(
      t,
      await h.call('players.create', live, {
        body: { ...validPlayer, ...REGISTRATION_DATA, limits: REQUIRED_LIMITS, cpf: randomCpf(), externalId, ...body },
        key: newKey(),
      }),
      201,
    );
  const consent = (playerId: string, value: boolean, scope = live, key = newKey()) =>
    h.call<any>('players.marketing.setConsent', scope, { params: { playerId }, body: { consent: value }, key });
  const marketingOf = async (playerId: string) => okBody<any>(t, await h.call('players.get', live, { params: { playerId } }), 200).marketing;
  const suppressions = async (date = today(), scope = live) => okBody<any>(t, await h.call('players.marketing.suppressions', scope, { query: { date } }), 200);
  const changedEvents = async (playerId: string) =>
    (await h.events())
      .filter((e) => e.event.type === 'player.marketing_changed' && (e.event.data as { playerId: string }).playerId === playerId)
      .map((e) => e.event.data as any);

  t.test('consent at registration and through the API; withdrawn; each told and kept', async (t) => {
    const p = await register('given', { marketingConsent: true });
    t.match(p.marketing, { consent: true, allowed: true, blockedBy: null, consentChangedAt: String });
    const key = newKey();
    const off = okBody<any>(t, await consent(p.id, false, live, key), 200);
    t.match(off, { consent: false, allowed: false, blockedBy: null });
    t.same(okBody<any>(t, await consent(p.id, false, live, key), 200), off, 'a replay answers the same');
    t.same(okBody<any>(t, await consent(p.id, false), 200), off, 'withdrawn again: nothing changes');
    t.match(okBody<any>(t, await consent(p.id, true), 200), { consent: true, allowed: true });
    errorCode(t, await consent(p.id, true, scopes.aSandbox), 'PLAYER_NOT_FOUND', "another brand's player");
    t.same(
      (await changedEvents(p.id)).map((d) => [d.consent, d.allowed, d.reason]),
      [
        [false, false, 'consent_withdrawn'],
        [true, true, 'consent_given'],
      ],
      'one event per change',
    );
    const kept = await h.sql<{ new_value: boolean; by: string }>(
      'select new_value, "by" from players.registration_changes where player_id = ? and field = \'marketingConsent\' order by id',
      [p.id],
    );
    t.same(
      kept.map((k) => [k.new_value, k.by]),
      [
        [true, 'operator'],
        [false, 'operator'],
        [true, 'operator'],
      ],
      'registration, withdrawal, consent: kept with who',
    );
  });

  t.test('a self-exclusion forces it off and it cannot be given again while it lasts', async (t) => {
    const p = await register('selfx', { marketingConsent: true });
    okBody(t, await h.call('players.rg.selfExclude', live, { params: { playerId: p.id }, body: { months: 1 }, key: newKey() }), 200);
    t.match(await marketingOf(p.id), { consent: false, allowed: false, blockedBy: 'self_exclusion' });
    const refused = await consent(p.id, true);
    errorCode(t, refused, 'MARKETING_BLOCKED');
    t.same(!refused.ok && refused.error.details, { blockedBy: 'self_exclusion' });
    t.same(
      (await changedEvents(p.id)).map((d) => [d.consent, d.allowed, d.blockedBy, d.reason]),
      [[false, false, 'self_exclusion', 'self_exclusion']],
    );
    const byThe = await h.sql<{ by: string }>(
      'select "by" from players.registration_changes where player_id = ? and field = \'marketingConsent\' order by id desc limit 1',
      [p.id],
    );
    t.equal(byThe[0]!.by, 'system', 'forced off by the rule');
  });

  t.test('a pause and an impediment force it off too; a player without consent is listed all the same', async (t) => {
    const paused = await register('paused', { marketingConsent: true });
    okBody(
      t,
      await h.call('players.rg.pause', live, { params: { playerId: paused.id }, body: { until: new Date(Date.now() + 3 * DAY).toISOString() }, key: newKey() }),
      200,
    );
    t.match(await marketingOf(paused.id), { consent: false, blockedBy: 'pause' });
    errorCode(t, await consent(paused.id, true), 'MARKETING_BLOCKED', 'not while paused');

    const impeded = await register('impeded');
    okBody(
      t,
      await h.call('players.admin.impediments.add', admin, { body: { cpf: impeded.cpf, category: 'operator_staff', note: 'staff of the operator' } }),
      201,
    );
    t.match(await marketingOf(impeded.id), { consent: false, allowed: false, blockedBy: 'impediment' });
    errorCode(t, await consent(impeded.id, true), 'MARKETING_BLOCKED', 'not while impeded');
    t.same(await changedEvents(impeded.id), [], 'no consent to force off: no event');
  });

  t.test("the day's list: who must not be contacted and why, per brand, page by page; our team reads it too", async (t) => {
    const closed = await register('closed', { marketingConsent: true });
    okBody(t, await h.call('players.admin.status', admin, { params: { id: closed.id }, body: { status: 'encerrado' } }), 200);
    t.match(await marketingOf(closed.id), { consent: false, blockedBy: 'closed' });
    const free = await register('free', { marketingConsent: true });

    const list = await suppressions();
    const byExternal = Object.fromEntries(list.data.map((s: any) => [s.externalId, s.reasons]));
    t.same(byExternal, {
      given: ['consent_withdrawn'],
      selfx: ['consent_withdrawn', 'self_exclusion'],
      paused: ['consent_withdrawn', 'pause'],
      impeded: ['impediment'],
      closed: ['closed', 'consent_withdrawn'],
    });
    t.notOk(
      list.data.some((s: any) => s.playerId === free.id),
      'a player who may be contacted is not listed',
    );
    t.match(list, { brandId: live.brandId, date: today(), timeZone: 'America/Sao_Paulo', nextAfter: null });

    const page1 = okBody<any>(t, await h.call('players.marketing.suppressions', live, { query: { date: today(), limit: 2 } }), 200);
    const page2 = okBody<any>(t, await h.call('players.marketing.suppressions', live, { query: { date: today(), limit: 2, after: page1.nextAfter } }), 200);
    const page3 = okBody<any>(t, await h.call('players.marketing.suppressions', live, { query: { date: today(), limit: 2, after: page2.nextAfter } }), 200);
    t.same([...page1.data, ...page2.data, ...page3.data], list.data, 'the pages together are the list');
    t.equal(page3.nextAfter, null);

    t.same((await suppressions(today(), scopes.aSandbox)).data, [], "another brand's list is its own");
    t.same((await suppressions(today(new Date(Date.now() - 2 * DAY)))).data, [], 'two days ago nobody was blocked');
    const later = (await suppressions(today(new Date(Date.now() + 5 * DAY)))).data.map((s: any) => s.externalId).sort();
    t.same(later, ['closed', 'impeded', 'paused', 'selfx'], 'in five days the pause is over but its withdrawn consent stays; a consent given again is not');
    const ours = okBody<any>(t, await h.call('players.admin.marketingSuppressions', admin, { query: { brandId: live.brandId, date: today() } }), 200);
    t.same(ours.data, list.data, 'our team reads the same list');
  });
});
