// The compliance stack for tests: real players, wallet, payments and compliance services
// (in-process) on a fresh database and NATS prefix, an operator switched to br-spa, and the money
// flows that feed the watch (deposits, withdrawals, real-money rounds), through the services'
// own operations as the gateway sends them.
import type { Test } from 'tap';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { AmlCase, AmlCaseSummary, Deposit, OperatorScope, Withdrawal } from '@bo/contracts';
import { paymentsService } from '@bo/payments';
import { playersService } from '@bo/players';
import { walletService, walletServiceWith } from '@bo/wallet';
import { BR_SPA_LIMITS, adminScope, createPlayer, gatewayScope, ok, operatorScope, startStack, tokenOf, type Rng, type Stack } from '@bo/test-support';
import { waitFor } from '@bo/service-kit/testing';
import { complianceService, createComplianceService } from '../../src/service.ts';

/** A valid CNPJ (check digits right) the test operators are registered with (issue #60). */
export const TEST_CNPJ = '11222333000181';

export { adminScope, errorOf, ok, operatorScope } from '@bo/test-support';

export const key = (label = 'k') => `${label}-${randomBytes(8).toString('hex')}`;

export interface ComplianceStack extends Stack {
  db: pg.Client;
  /** A production operator scope of its own (real-money rounds need production), or a sandbox one. */
  brSpaOperator(environment?: 'production' | 'sandbox'): Promise<OperatorScope>;
  player(scope: OperatorScope): Promise<string>;
  /** The player's CPF (what br-spa's payer and payout rules compare with). */
  cpfOf(playerId: string): Promise<string>;
  /** A deposit confirmed with the player as its payer (`payerName`: the PSP's name of the account, when given). */
  deposit(scope: OperatorScope, playerId: string, amount: string, payerName?: string): Promise<Deposit>;
  withdraw(scope: OperatorScope, playerId: string, amount: string, destination?: string): Promise<Withdrawal>;
  /** Real-money dice rounds of `amount` each through a game session (BET entries in the ledger). */
  play(scope: OperatorScope, playerId: string, amount: string, rounds: number): Promise<void>;
  /** Waits until the watch has recorded `n` money events of the player. */
  watched(playerId: string, n: number): Promise<void>;
  cases(playerId: string): Promise<AmlCaseSummary[]>;
  caseOf(id: string): Promise<AmlCase>;
}

export async function startComplianceStack(
  t: Test,
  label: string,
  /** `rng`: the games' random source (scriptedRng: a round lost or won as the test needs). */
  opts: { now?: () => Date; config?: Record<string, unknown>; players?: Record<string, unknown>; rng?: Rng } = {},
): Promise<ComplianceStack> {
  const stack = await startStack(t, label);
  await stack.start(playersService, opts.players);
  await stack.start(opts.rng ? walletServiceWith({ rng: opts.rng }) : walletService);
  await stack.start(paymentsService, { RECONCILE_INTERVAL_MS: 100, RECONCILE_AFTER_MS: 300 });
  await stack.start(opts.now ? createComplianceService({ now: opts.now }) : complianceService, { PROFILE_CACHE_MS: 0, ...opts.config });
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  t.teardown(() => db.end());
  const { call } = stack;
  const cpfOf = async (playerId: string) =>
    ok<{ player: { cpf: string } }>(await call('players.admin.get', { scope: adminScope, params: { id: playerId } })).player.cpf;
  const count = async (q: string, params: unknown[]) => Number((await db.query(q, params)).rows[0].n);
  return Object.assign(stack, {
    db,
    cpfOf,
    async brSpaOperator(environment: 'production' | 'sandbox' = 'production') {
      const scope = operatorScope('aml', environment);
      ok(
        await call('players.admin.setCompliance', {
          scope: adminScope,
          params: { id: scope.operatorId },
          body: { profile: 'br-spa', reason: 'the operator is licensed in Brazil' },
        }),
      );
      // Its CNPJ, which every SIGAP file of a production brand carries (issue #60).
      ok(
        await call('compliance.admin.sigap.operator.set', {
          scope: adminScope,
          params: { operatorId: scope.operatorId },
          body: { cnpj: TEST_CNPJ, reason: 'the licence' },
        }),
      );
      return scope;
    },
    // br-spa asks for a loss and a time limit before money moves (responsible gaming).
    player: (scope: OperatorScope) => createPlayer(call, scope, { kyc: 'aprovado', limits: BR_SPA_LIMITS }),
    async deposit(scope: OperatorScope, playerId: string, amount: string, payerName?: string) {
      const dep = ok<Deposit>(
        await call('payments.deposits.create', {
          scope,
          key: key('dep'),
          params: { playerId },
          body: { amount, currency: 'BRL', method: 'pix', externalReference: key('ref') },
        }),
      );
      // br-spa: the payer is the player (the player's own CPF).
      const payer = { cpf: await cpfOf(playerId), ...(payerName ? { name: payerName } : {}) };
      return ok<Deposit>(await call('payments.deposits.confirm', { scope, key: key('conf'), params: { depositId: dep.id }, body: { payer } }));
    },
    async withdraw(scope: OperatorScope, playerId: string, amount: string, to?: string) {
      // br-spa: a payout goes to the player's own account (a CPF PIX key).
      const destination = to ?? (await cpfOf(playerId));
      return ok<Withdrawal>(
        await call('payments.withdrawals.create', {
          scope,
          key: key('wd'),
          params: { playerId },
          body: { amount, currency: 'BRL', method: 'pix', destination },
        }),
      );
    },
    async play(scope: OperatorScope, playerId: string, amount: string, rounds: number) {
      const session = ok<{ gameUrl: string }>(
        await call('games.sessions.create', { scope, key: key('gs'), params: { playerId }, body: { gameId: 'gm_dice_classic' } }),
      );
      const token = tokenOf(session.gameUrl);
      for (let i = 0; i < rounds; i++) {
        ok(await call('games.play.round', { scope: gatewayScope, params: { token }, body: { amount, target: '50', clientRoundId: key('round') } }));
      }
    },
    async watched(playerId: string, n: number) {
      await waitFor(async () => (await count('select count(*) as n from compliance.watched_money where player_id = $1', [playerId])) >= n, {
        what: `${n} watched events of ${playerId}`,
      });
    },
    async cases(playerId: string) {
      return ok<{ data: AmlCaseSummary[] }>(await call('compliance.admin.cases.list', { scope: adminScope, query: { playerId } })).data;
    },
    async caseOf(id: string) {
      return ok<AmlCase>(await call('compliance.admin.cases.get', { scope: adminScope, params: { id } }));
    },
  }) as ComplianceStack;
}
