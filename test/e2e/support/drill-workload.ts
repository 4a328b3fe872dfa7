// The restore drill's traffic (issue #67), and the outside world's own record of it: every money
// movement the system acknowledged (a deposit confirmed, a payout marked paid, a real-money casino
// round played, a provider's or Hub88's transaction answered), by id, with when its answer came.
// What a restored database no longer knows is found by comparing this record with it
// (drill-checks.ts), never by asking the system that forgot.
//
// The operator plays real money in production (rounds only move money there); the provider
// simulators play its sandbox. Each request is sent again with its key until it has a final answer,
// as a careful operator does, unless the play was stopped meanwhile (the primary was just lost).
import { randomUUID } from 'node:crypto';
import { OperatorClient, type ClientResponse, type CreatedOperator } from '@bo/contracts';
import { AdminSide, runHub88Simulation, runSimulation, startLaunchServer, type LaunchServer, type SimProvider } from '@bo/provider-sim';
import { ADMIN_TOKEN } from './stack.ts';

export type MovementKind = 'deposit' | 'payout' | 'round' | 'provider' | 'hub88';

/** A money movement the outside world was told happened. */
export interface Movement {
  kind: MovementKind;
  /** Deposit, withdrawal or round id; a provider transaction's id. */
  id: string;
  /** `operator/environment`, or the provider's id for a provider transaction. */
  party: string;
  amount: string;
  /** When its answer came (ms). */
  at: number;
  /** A provider transaction's call (bet, win, rollback…). */
  call?: string;
}

/** Where the system answers now: it moves to another database (and gateway ports) during the drill. */
export interface SystemUrls {
  publicUrl: string;
  adminUrl: string;
}

export interface Team {
  approver: string;
  payer: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class DrillWorkload {
  readonly movements: Movement[] = [];
  /** Requests that got no final answer before the play was stopped (the primary lost under them). */
  unanswered = 0;
  #stopped = false;
  #players: string[] = [];
  #launch: LaunchServer | undefined;
  #providers: SimProvider[] = [];
  #approved: string[] = [];
  #payouts = 0;

  private readonly op: CreatedOperator;
  private readonly team: Team;

  constructor(op: CreatedOperator, team: Team) {
    this.op = op;
    this.team = team;
  }

  /** Stops sending: requests under way give up instead of retrying. */
  stop(): void {
    this.#stopped = true;
  }
  resume(): void {
    this.#stopped = false;
  }

  #live(sys: SystemUrls): OperatorClient {
    return new OperatorClient({ baseUrl: `${sys.publicUrl}/api/v1`, key: this.op.production.key, secret: this.op.production.secret });
  }

  /** The same request until a final answer (none, a 5xx, a 429 or IDEMPOTENCY_IN_PROGRESS are sent again), for up to 180 s. */
  async #answered(send: () => Promise<ClientResponse>, what: string): Promise<ClientResponse | undefined> {
    const deadline = Date.now() + 180_000;
    for (let attempt = 0; ; attempt++) {
      const r = await send().catch(() => undefined);
      const retry = !r || r.status >= 500 || r.status === 429 || (r.status === 409 && r.body?.error?.code === 'IDEMPOTENCY_IN_PROGRESS');
      if (!retry) return r;
      if (this.#stopped) {
        this.unanswered++;
        return undefined;
      }
      if (Date.now() > deadline) throw new Error(`${what}: no final answer in 180 s (last ${r?.status ?? 'no answer'})`);
      await sleep(Math.min(2000, 100 * 2 ** Math.min(attempt, 5)));
    }
  }

  async #post(client: OperatorClient, p: string, body: unknown, want: number, what: string): Promise<any> {
    const key = { 'idempotency-key': `drill-${randomUUID()}` };
    const r = await this.#answered(() => client.post(p, body, key), what);
    if (r && r.status !== want) throw new Error(`${what}: ${r.status} ${r.text.slice(0, 300)}`);
    return r?.body;
  }

  async #admin(sys: SystemUrls, token: string, p: string, body: unknown, what: string): Promise<any> {
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': `drill-${randomUUID()}` };
    const r = await this.#answered(async () => {
      const res = await fetch(`${sys.adminUrl}${p}`, { method: 'POST', headers, body: JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
    }, what);
    if (r && r.status !== 200) throw new Error(`${what}: ${r.status} ${r.text.slice(0, 300)}`);
    return r?.body;
  }

  /** Production players, KYC approved by our team, and the provider simulators' set-up. */
  async setUp(sys: SystemUrls, players: number): Promise<void> {
    const live = this.#live(sys);
    for (let i = 0; i < players; i++) {
      const p = await this.#post(
        live,
        '/players',
        {
          externalId: `drill-${i}-${randomUUID().slice(0, 8)}`,
          name: 'Ana Souza',
          email: `drill${i}@example.com`,
          cpf: '52998224725',
          birthDate: '1990-05-17',
        },
        201,
        'register a player',
      );
      await this.#admin(sys, ADMIN_TOKEN, `/admin/players/${p.id}/kyc/decision`, { status: 'aprovado', reason: 'drill' }, 'KYC decision');
      this.#players.push(p.id);
    }
    this.#launch = await startLaunchServer();
    const admin = new AdminSide({ url: sys.adminUrl, token: ADMIN_TOKEN, retry: { deadlineMs: 180_000 } });
    this.#providers = [
      await admin.registerProvider({
        name: `Drill casino ${randomUUID().slice(0, 6)}`,
        kind: 'casino',
        launchUrl: this.#launch.url,
        operatorId: this.op.operator.id,
        environment: 'sandbox',
      }),
    ];
  }

  async close(): Promise<void> {
    await this.#launch?.close();
  }

  #note(m: Omit<Movement, 'at'>): void {
    this.movements.push({ ...m, at: Date.now() });
  }

  /** `n` turns of each player's money: a deposit confirmed, a real-money round; every other turn a withdrawal approved and paid by two people. */
  async playMoney(sys: SystemUrls, n: number): Promise<void> {
    const live = this.#live(sys);
    const party = `${this.op.operator.id}/production`;
    await Promise.all(
      this.#players.map(async (player, k) => {
        const session = await this.#post(live, `/players/${player}/game-sessions`, { gameId: 'gm_dice_classic' }, 201, 'open a game session');
        for (let i = 0; i < n && !this.#stopped; i++) {
          const amount = `${20 + ((k * 7 + i) % 30)}.00`;
          const d = await this.#post(
            live,
            `/players/${player}/deposits`,
            { amount, currency: 'BRL', method: 'pix', externalReference: `drill-${randomUUID()}` },
            201,
            'deposit',
          );
          if (!d) return;
          const confirmed = await this.#post(live, `/deposits/${d.id}/confirm`, undefined, 200, 'confirm');
          if (!confirmed) return;
          this.#note({ kind: 'deposit', id: d.id, party, amount });
          if (session) {
            const clientRoundId = `drill-${randomUUID()}`;
            const round = await this.#answered(async () => {
              const res = await fetch(`${session.gameUrl.replace(/^https?:\/\/[^/]+/, sys.publicUrl)}/rounds`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ amount: '1.00', target: '50', clientRoundId }),
              });
              const text = await res.text();
              return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
            }, 'round');
            if (!round) return;
            if (round.status !== 201) throw new Error(`round: ${round.status} ${round.text.slice(0, 300)}`);
            this.#note({ kind: 'round', id: round.body.id, party, amount: `-1.00 +${round.body.payout}` });
          }
          if (i % 2 === 1) await this.#payout(sys, live, player, party);
        }
      }),
    );
  }

  /** Each player's withdrawal approved by the first person and left for payment (paid after T: the restored one is approved, not paid). */
  async approveForLater(sys: SystemUrls): Promise<void> {
    const live = this.#live(sys);
    for (const player of this.#players) {
      const w = await this.#post(
        live,
        `/players/${player}/withdrawals`,
        { amount: '7.00', currency: 'BRL', method: 'pix', destination: 'key' },
        201,
        'withdrawal',
      );
      await this.#admin(sys, this.team.approver, `/admin/withdrawals/${w.id}/decision`, { decision: 'approve' }, 'approve');
      this.#approved.push(w.id);
    }
  }

  async payApproved(sys: SystemUrls): Promise<void> {
    for (const id of this.#approved.splice(0)) {
      const paid = await this.#admin(sys, this.team.payer, `/admin/withdrawals/${id}/decision`, { decision: 'pay' }, 'pay');
      if (paid?.status === 'paid') this.#note({ kind: 'payout', id, party: `${this.op.operator.id}/production`, amount: '7.00' });
    }
  }

  async #payout(sys: SystemUrls, live: OperatorClient, player: string, party: string): Promise<void> {
    // Each its own amount: two equal withdrawals of a player signed in the same second are one signature (SIGNATURE_REUSED).
    const amount = (5 + (this.#payouts++ % 100) / 100).toFixed(2);
    const w = await this.#post(live, `/players/${player}/withdrawals`, { amount, currency: 'BRL', method: 'pix', destination: 'key' }, 201, 'withdrawal');
    if (!w) return;
    if (!(await this.#admin(sys, this.team.approver, `/admin/withdrawals/${w.id}/decision`, { decision: 'approve' }, 'approve'))) return;
    const paid = await this.#admin(sys, this.team.payer, `/admin/withdrawals/${w.id}/decision`, { decision: 'pay' }, 'pay');
    if (paid?.status === 'paid') this.#note({ kind: 'payout', id: w.id, party, amount });
  }

  /** Provider play on `/provider/v1` (one session of the simulator's aggregator) and one Hub88 session through its connector. */
  async playProviders(sys: SystemUrls): Promise<void> {
    const sim = await runSimulation({
      gatewayUrl: sys.publicUrl,
      operator: this.op.sandbox,
      providers: this.#providers,
      launch: this.#launch!,
      sessions: 1,
      concurrency: 1,
      rounds: 2,
      funds: '100.00',
      sportsEvery: 3,
      retryDeadlineMs: 180_000,
      timeoutMs: 30_000,
      maxExpiryWaitMs: 0,
    });
    if (sim.problems.length) throw new Error(`provider play: ${sim.problems.slice(0, 3).join('; ')}`);
    // Every answer of the batch came before it ended: the drill's points (T, the loss) fall between batches.
    const answeredBy = Date.now();
    for (const a of sim.transactions)
      this.movements.push({ kind: 'provider', id: a.answer.transactionId, party: a.providerId, amount: a.answer.moved, at: answeredBy, call: a.answer.kind });
    let hub88Provider = '';
    const answers: Array<Omit<Movement, 'party'>> = [];
    const stakes = new Map<string, number>();
    const hub88 = await runHub88Simulation({
      gatewayUrl: sys.publicUrl,
      operator: this.op.sandbox,
      admin: { url: sys.adminUrl, token: ADMIN_TOKEN },
      sessions: 1,
      concurrency: 1,
      rounds: 2,
      funds: '100.00',
      retryDeadlineMs: 180_000,
      timeoutMs: 30_000,
      maxExpiryWaitMs: 0,
      log: (line) => {
        hub88Provider ||= /registered Hub88 provider (\S+);/.exec(line)?.[1] ?? '';
      },
      // Hub88's record of the money it was told moved: bets and wins with an amount, and rollbacks of
      // those bets (a rollback carries no amount: its bet's stake comes back). An answer that moved
      // nothing (a promotion's win of 0.00, a rollback of a bet never taken) is left out.
      onAnswer: (call, body, answer) => {
        if (answer.status !== 'RS_OK' || typeof body.transaction_uuid !== 'string') return;
        const stake = stakes.get(String(body.reference_transaction_uuid));
        const amount = call === 'rollback' ? stake : Number(body.amount ?? 0) / 100_000;
        if (!amount) return;
        if (call === 'bet') stakes.set(body.transaction_uuid, amount);
        answers.push({ kind: 'hub88', id: body.transaction_uuid, amount: (call === 'bet' ? -amount : amount).toFixed(2), at: Date.now(), call });
      },
    });
    if (hub88.problems.length) throw new Error(`Hub88 play: ${hub88.problems.slice(0, 3).join('; ')}`);
    // A repeat of a transaction_uuid is answered again: the first answer is the one that moved money.
    const seen = new Set<string>();
    for (const a of answers) if (!seen.has(a.id)) seen.add(a.id) && this.movements.push({ ...a, party: hub88.providerId || hub88Provider });
  }

  /** Deposits, one after another per player, until stopped: the traffic under which the primary is lost. */
  async depositUntilStopped(sys: SystemUrls): Promise<void> {
    const live = this.#live(sys);
    const party = `${this.op.operator.id}/production`;
    await Promise.all(
      this.#players.map(async (player) => {
        while (!this.#stopped) {
          const d = await this.#post(
            live,
            `/players/${player}/deposits`,
            { amount: '10.00', currency: 'BRL', method: 'pix', externalReference: `drill-${randomUUID()}` },
            201,
            'deposit',
          ).catch(() => undefined);
          if (!d) return;
          const confirmed = await this.#post(live, `/deposits/${d.id}/confirm`, undefined, 200, 'confirm').catch(() => undefined);
          if (confirmed) this.#note({ kind: 'deposit', id: d.id, party, amount: '10.00' });
        }
      }),
    );
  }

  /** One deposit confirmed on the system at `sys`; resolves with its id once accepted (the RTO's end). */
  async firstDeposit(sys: SystemUrls): Promise<string> {
    const live = this.#live(sys);
    const player = this.#players[0]!;
    const d = await this.#post(
      live,
      `/players/${player}/deposits`,
      { amount: '10.00', currency: 'BRL', method: 'pix', externalReference: `drill-${randomUUID()}` },
      201,
      'deposit',
    );
    await this.#post(live, `/deposits/${d.id}/confirm`, undefined, 200, 'confirm');
    this.#note({ kind: 'deposit', id: d.id, party: `${this.op.operator.id}/production`, amount: '10.00' });
    return d.id as string;
  }
}
