// payments.deposits.create / confirm / fail.
import {
  ACTIVITY_CHECK_SUBJECT,
  activityCheckDue,
  AppError,
  COMPLIANCE_DEFAULTS,
  newId,
  normaliseCpf,
  type ActivityCheck,
  type DepositPayer,
  type PlayerState,
  type paymentAdminOperations,
  type paymentOperations,
} from '@bo/contracts';
import {
  adminScopeOf,
  crashPoint,
  formatMoney,
  ruleClock,
  type HandlerOf,
  type HandlerResult,
  type RequestOf,
  requestKeyOf,
  type ServiceDeps,
  operatorScopeOf,
} from '@bo/service-kit';
import {
  CONFIRM_OPERATION,
  checkAmount,
  checkDepositAllowed,
  checkPlayerAndCurrency,
  depositLimits,
  depositView,
  type DepositRow,
  type DepositUsage,
} from '../domain/deposits.ts';
import {
  findByExternalReference,
  insertDeposit,
  insertDepositWithResponse,
  CREATE_GROUP,
  newDepositStatements,
  type NewDeposit,
  type InsertDeposits,
  listPlayerDeposits,
  lockDeposit,
  lockPlayerDeposits,
  markConfirming,
  readDeposit,
  markConfirmingIfPending,
  INTENT_GROUP,
  intentStatements,
  type ConfirmIntent,
  markFailed,
  referenceAndUsage,
} from '../store/deposit-store.ts';
import { limitReachedAnnounced } from '../flows/limit-reached.ts';
import { answers } from '../flows/context.ts';
import { finishConfirmation } from '../flows/deposit-confirmation.ts';
import { COMPLETION_GROUP, completionStatements, type Completion } from '../store/deposit-completion.ts';
import { playerState } from './request.ts';
import { checkMethod, checkNotImpeded, isBrSpa } from '../own-account/own-account-rules.ts';
import { refusePayer } from '../own-account/deposit-payer.ts';
import type { OwnAccount } from '../own-account/setup.ts';

const CREATE = 'payments.deposits.create';
const FAIL = 'payments.deposits.fail';

const alreadyExists = (depositId: string) => new AppError('DEPOSIT_ALREADY_EXISTS', undefined, { depositId });

/** Whether the RG and status checks other than the deposit limits pass for this player. */
function mayDeposit(player: PlayerState, amount: string, now: Date): boolean {
  try {
    checkDepositAllowed(player, amount, now, ZERO_USAGE);
    return true;
  } catch {
    return false;
  }
}
const ZERO_USAGE: DepositUsage = { used: { day: '0', week: '0', month: '0' }, resetsAt: { day: '', week: '', month: '' } };

export function createDeposit(deps: ServiceDeps): HandlerOf<typeof paymentOperations.createDeposit> {
  // Concurrent creates without a limit share their statement (docs/money.md, "Group commit").
  const creates = deps.statementGroup<NewDeposit, { n: number }>(CREATE_GROUP, newDepositStatements);
  return async (req) => {
    const ref = requestKeyOf(req.ctx);
    try {
      return await create(deps, req, ref, creates);
    } catch (e) {
      // A replay answers what the first request did, whatever the player's state is now; a
      // request with our key that won a race (same reference, or the key's record) answered first.
      const prior = await answers.findStored(deps.sql, ref, CREATE);
      if (prior) return prior;
      throw e;
    }
  };
}

/** The create itself. No lookup of a stored answer first: a repeat of the key fails the insert of its record, and the caller answers it. */
async function create(
  deps: ServiceDeps,
  req: RequestOf<typeof paymentOperations.createDeposit>,
  ref: ReturnType<typeof requestKeyOf>,
  creates: InsertDeposits,
): Promise<HandlerResult> {
  const scope = operatorScopeOf(req);
  const { playerId } = req.params;
  const input = req.body;
  checkAmount(input.amount);
  const player = await playerState(deps, scope.brandId, playerId);
  checkPlayerAndCurrency(player, input.currency);
  if (isBrSpa(player)) {
    checkMethod(input.method);
    checkNotImpeded(player);
    // The day's impediment check when the player was not checked yet today (login, sweep or activity).
    if (activityCheckDue(player, ruleClock.now())) {
      await deps.call(ACTIVITY_CHECK_SUBJECT, { brandId: scope.brandId, playerId, activity: 'deposit' } satisfies ActivityCheck);
    }
  }
  const ownerCpf = isBrSpa(player) ? player.cpf : null;
  const asked = ruleClock.now();
  const limited = depositLimits(player, asked).length > 0;
  const newRow = (now: Date): DepositRow => ({
    id: newId('deposit'),
    operatorId: scope.operatorId,
    brandId: scope.brandId,
    environment: scope.environment,
    playerId,
    amount: formatMoney(input.amount),
    currency: input.currency,
    method: input.method,
    externalReference: input.externalReference,
    status: 'pending',
    confirmScope: null,
    confirmKey: null,
    confirmFingerprint: null,
    createdAt: now,
    updatedAt: now,
    confirmedAt: null,
    failedAt: null,
    failureReason: null,
  });
  if (!limited && mayDeposit(player, input.amount, asked)) {
    // The usual case: no limit, nothing to serialise, and no refusal that must come after the
    // duplicate check. One statement: the deposit (its reference unique per brand) and the
    // stored response, or neither.
    const row = newRow(asked);
    const created = { row, ref, operation: CREATE, body: depositView(row), ownerCpf };
    if (await insertDepositWithResponse(deps.sql, created, creates)) return { status: 201, body: depositView(row) };
    throw alreadyExists((await findByExternalReference(deps.sql, scope.brandId, input.externalReference))!);
  }
  const answer = answers.runOnce(deps.sql, ref, CREATE, async (tx) => {
    // Only a deposit limit needs the player's deposits serialised (advisory lock, then the sums
    // in a later statement, so its snapshot sees every deposit committed before the lock).
    if (limited) await lockPlayerDeposits(tx, scope.brandId, playerId);
    const now = ruleClock.now();
    const timeZone = limited ? (player.rg?.timeZone ?? COMPLIANCE_DEFAULTS.timeZone) : undefined;
    const { existing, usage } = await referenceAndUsage(tx, scope.brandId, playerId, input.externalReference, now, timeZone);
    if (existing) throw alreadyExists(existing);
    checkDepositAllowed(player, input.amount, now, usage);
    const row = newRow(now);
    // Another player's deposit may take the reference between the check and here.
    if (!(await insertDeposit(tx, row, ownerCpf))) throw alreadyExists((await findByExternalReference(tx, scope.brandId, input.externalReference))!);
    return { status: 201, body: depositView(row) };
  });
  return limitReachedAnnounced(deps, scope, player, answer);
}

export function confirmDeposit(deps: ServiceDeps, own: OwnAccount): HandlerOf<typeof paymentOperations.confirmDeposit> {
  // Concurrent confirms share their intent's and their completion's statements (docs/money.md, "Group commit").
  const intents = deps.statementGroup<ConfirmIntent, DepositRow>(INTENT_GROUP, intentStatements);
  const completions = deps.statementGroup<Completion, { n: number }>(COMPLETION_GROUP, completionStatements);
  return async (req) => {
    const scope = operatorScopeOf(req);
    const ref = requestKeyOf(req.ctx);
    const { depositId } = req.params;
    let checkedPayer: DepositPayer | undefined;
    // Step 1: the intent. From `confirming` the deposit can only end confirmed. The usual case, a
    // pending deposit and a key with no stored answer (under br-spa, and a payer who is the owner
    // the deposit recorded at create), is one statement; anything else (a replay of this key
    // included) is looked at under the row lock.
    let intent: DepositRow | undefined;
    if ((await own.profiles.of(scope.operatorId)) === 'br-spa') {
      // Ordinance 615/2024: only the player's own account pays in (own-account/deposit-payer.ts).
      const payer = req.body?.payer;
      if (!payer) throw new AppError('PAYER_REQUIRED');
      intent = await markConfirmingIfPending(deps.sql, { id: depositId, brandId: scope.brandId, ref, payer: { payer, checked: false } }, intents);
      if (!intent) {
        // Not the usual case: the payer is checked against the player (a deposit created before
        // its operator was br-spa records no owner).
        const row = await readDeposit(deps.sql, depositId, scope.brandId);
        if (!row) throw new AppError('DEPOSIT_NOT_FOUND');
        const player = await playerState(deps, scope.brandId, row.playerId);
        if (player.cpf !== normaliseCpf(payer.cpf)) return refusePayer(deps, depositId, scope.brandId, payer, ref);
        checkedPayer = payer; // kept on the deposit with the confirm's intent
        intent = await markConfirmingIfPending(deps.sql, { id: depositId, brandId: scope.brandId, ref, payer: { payer, checked: true } }, intents);
      }
    } else {
      intent = await markConfirmingIfPending(deps.sql, { id: depositId, brandId: scope.brandId, ref }, intents);
    }
    const answered = intent
      ? undefined
      : await deps.sql.transaction(async (tx) => {
          // The key's stored answer comes first, as the gateway's check would (a conflict when the key was another request's).
          const replayed = await answers.findStored(tx, ref, CONFIRM_OPERATION);
          if (replayed) return replayed;
          const row = await lockDeposit(tx, depositId, scope.brandId);
          if (!row) throw new AppError('DEPOSIT_NOT_FOUND');
          const intentRow = { status: row.status, scope: row.confirmScope, key: row.confirmKey, fingerprint: row.confirmFingerprint };
          return answers.recordIntent(tx, ref, CONFIRM_OPERATION, intentRow, {
            from: 'pending',
            to: 'confirming',
            mark: () => markConfirming(tx, row.id, ref, checkedPayer),
            refusal: 'DEPOSIT_NOT_PENDING',
          });
        });
    if (answered) return answered;
    crashPoint('payments.confirm.after-intent');
    const done = await finishConfirmation(deps, depositId, intent, completions);
    if (done.status !== 'confirmed') throw new Error(`deposit ${depositId} ended ${done.status} after its confirm`);
    return { status: 200, body: depositView(done) };
  };
}

export function failDeposit(deps: ServiceDeps): HandlerOf<typeof paymentOperations.failDeposit> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const ref = requestKeyOf(req.ctx);
    const { depositId } = req.params;
    const input = req.body;
    return answers.runOnce(deps.sql, ref, FAIL, async (tx) => {
      const row = await lockDeposit(tx, depositId, scope.brandId);
      if (!row) throw new AppError('DEPOSIT_NOT_FOUND');
      if (row.status !== 'pending') throw new AppError('DEPOSIT_NOT_PENDING');
      return { status: 200, body: depositView(await markFailed(tx, row, new Date(), input.reason ?? null)) };
    });
  };
}

/** Our team reads one player's deposits (any brand): the player page of the console. */
export function adminListDeposits(deps: ServiceDeps): HandlerOf<typeof paymentAdminOperations.adminListDeposits> {
  return async (req) => {
    adminScopeOf(req);
    const rows = await listPlayerDeposits(deps.sql, req.query.playerId, req.query.limit ?? 50);
    return {
      status: 200,
      body: { data: rows.map((r) => ({ ...depositView(r), operatorId: r.operatorId, brandId: r.brandId, environment: r.environment, paidBy: r.paidBy })) },
    };
  };
}
