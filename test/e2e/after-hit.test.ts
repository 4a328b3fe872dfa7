// After an impediment hit (issue #46 item 4, docs/eligibility.md "After a hit") through the gateway,
// against the real processes: the operator records and lists its messages to a bettor (signed,
// Idempotency-Key required and replayed) and reads the central self-exclusion link in the
// responsible-gaming view; our team's routes answer only the roles they are for: the communications
// log to everyone, the closures report to compliance, the unclaimed funds to finance and compliance,
// the job to finance (audited), and the return of held funds to a person of finance only (a named
// token is refused; outside production ADMIN_TOKEN stands for a person, so it is not asked here).
import t from 'tap';
import { waitFor } from '@bo/service-kit/testing';
import { activatedPerson } from './support/people.ts';
import { ADMIN_TOKEN, playerInput, startStack, uniq } from './support/stack.ts';

t.test('after an impediment hit, through the gateway', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('After Hit Bets');
  t.equal(
    (await stack.admin('PUT', `/admin/operators/${op.operator.id}/compliance`, { profile: 'br-spa', reason: 'the operator is licensed in Brazil' })).status,
    200,
    'br-spa',
  );
  const live = op.productionClient;
  const limits = [
    { type: 'loss', period: 'day', value: '1000.00' },
    { type: 'time', period: 'day', value: 600 },
  ];
  const player = await live.post('/players', { ...playerInput(uniq('ah')), cpf: '529.982.247-25', limits }, { 'idempotency-key': uniq('k') });
  t.equal(player.status, 201);
  const playerId = player.body.id as string;

  const as =
    (secret: string) =>
    async (method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> => {
      const res = await fetch(`${stack.adminUrl}${p}`, {
        method,
        headers: { authorization: `Bearer ${secret}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: await res.json() };
    };
  const token = async (name: string, role: string) => (await stack.admin('POST', '/admin/tokens', { name, role })).body.secret as string;
  /** A person's own token, made from her own session once activated (issue #56). */
  const personalToken = async (email: string, role: string) =>
    (await activatedPerson(stack.adminUrl, { authorization: `Bearer ${ADMIN_TOKEN}` }, { email, role })).token!;

  t.test('the operator records its messages and reads the central self-exclusion link', async (t) => {
    const body = {
      channel: 'sms',
      kind: 'impediment_notice',
      sentAt: new Date(Date.now() - 60_000).toISOString(),
      summary: 'Blocked: withdraw within 2 days.',
    };
    const key = { 'idempotency-key': uniq('com') };
    t.equal((await live.post(`/players/${playerId}/communications`, body)).status, 400, 'an Idempotency-Key is required');
    const recorded = await live.post(`/players/${playerId}/communications`, body, key);
    t.equal(recorded.status, 201);
    t.match(recorded.body, { id: /^com_/, playerId, channel: 'sms', kind: 'impediment_notice', retainUntil: String });
    const again = await live.post(`/players/${playerId}/communications`, body, key);
    t.same([again.status, again.body.id, again.headers.get('idempotent-replayed')], [201, recorded.body.id, 'true'], 'a retry replays the record');
    const list = await live.get(`/players/${playerId}/communications?limit=10`);
    t.same([list.status, list.body.data.map((c: any) => c.id), list.body.nextCursor], [200, [recorded.body.id], null]);
    const rg = await live.get(`/players/${playerId}/responsible-gaming`);
    t.same([rg.status, rg.body.centralSelfExclusionUrl], [200, 'https://www.gov.br/autoexclusaoapostas'], 'the link, under br-spa');
  });

  t.test("our team's routes answer the roles they are for", async (t) => {
    const support = as(await token('ah-support', 'support'));
    const finance = as(await token('ah-finance', 'finance'));
    const financePerson = as(await personalToken('fabio@ourteam.example', 'finance'));
    const compliance = as(await token('ah-compliance', 'compliance'));
    const root = as(ADMIN_TOKEN);

    t.equal((await support('GET', `/admin/players/${playerId}/communications`)).body.data.length, 1, 'everyone reads the communications log');
    for (const [method, p] of [
      ['GET', '/admin/unclaimed-funds'],
      ['GET', '/admin/fund-transfers'],
      ['POST', '/admin/jobs/unclaimed-funds'],
      ['GET', `/admin/reports/impeded-closures?brandId=${op.production.brandId}&date=2026-01-05`],
    ] as const) {
      const r = await support(method, p);
      t.same([r.status, r.body.error?.code], [403, 'FORBIDDEN_ROLE'], `support: ${method} ${p.split('?')[0]}`);
    }
    t.same((await finance('GET', '/admin/unclaimed-funds')).body, { data: [], nextCursor: null }, 'finance lists the unclaimed funds');
    t.equal((await compliance('GET', '/admin/fund-transfers')).status, 200, 'compliance lists the transfers');
    const report = await compliance('GET', `/admin/reports/impeded-closures?brandId=${op.production.brandId}&date=2026-01-05`);
    t.match(report, { status: 200, body: { brandId: op.production.brandId, date: '2026-01-05', timeZone: 'America/Sao_Paulo', data: [] } });
    const run = await finance('POST', '/admin/jobs/unclaimed-funds');
    t.match(run, { status: 200, body: { holdsCreated: 0, transfersRecorded: 0, ranAt: String } }, 'finance runs the job');
    // Its row comes through the wallet's outbox, written once the run is done.
    const audit = await waitFor(
      async () => {
        const rows = (await root('GET', '/admin/audit?action=adminRunUnclaimedFunds')).body.data;
        return rows.length ? rows : undefined;
      },
      { what: 'the run in the audit log', timeoutMs: 60_000 },
    );
    t.match(audit, [{ actor: 'token:ah-finance', target: 'job:unclaimed-funds' }], 'the run is audited');

    const giveBack = (caller: typeof finance) => caller('POST', '/admin/unclaimed-funds/uch_nope/return', { reference: 'pix-1' });
    t.same((await giveBack(finance)).body.error.code, 'PERSON_REQUIRED', 'a named service token takes no decision on money');
    t.same((await giveBack(compliance)).body.error.code, 'FORBIDDEN_ROLE', 'compliance does not return funds');
    const unknown = await giveBack(financePerson);
    t.same([unknown.status, unknown.body.error.code], [404, 'UNCLAIMED_FUNDS_NOT_FOUND'], 'a person of finance reaches the wallet');
  });
});
