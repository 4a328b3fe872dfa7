// A br-spa deposit confirm (Ordinance 615/2024 art. 3): the payer the PSP reported must be the
// player. The payer is kept on the deposit either way (our compliance team's record). A payer with
// another CPF is never credited: the deposit ends `failed` (`payer_mismatch`) with
// `deposit.failed` { refundRequired: true } in the same transaction, the wallet untouched.
import { AppError, normaliseCpf, type DepositPayer } from '@bo/contracts';
import { writeEvent, type HandlerResult, type RequestKey, type ServiceDeps } from '@bo/service-kit';
import { CONFIRM_OPERATION, depositView, type DepositRow } from '../domain/deposits.ts';
import { lockDeposit, markPayerMismatch } from '../store/deposit-store.ts';
import { answers } from '../flows/context.ts';

export const PAYER_MISMATCH = 'payer_mismatch';

/** The mismatch: `failed` with the payer and the event, once per key (a replay answers the same). */
export async function refusePayer(
  deps: ServiceDeps,
  depositId: string,
  brandId: string,
  payer: DepositPayer,
  ref: RequestKey | undefined,
): Promise<HandlerResult> {
  return answers.runOnce(deps.sql, ref, CONFIRM_OPERATION, async (tx) => {
    const row = await lockDeposit(tx, depositId, brandId);
    if (!row) throw new AppError('DEPOSIT_NOT_FOUND');
    if (row.status !== 'pending') throw new AppError('DEPOSIT_NOT_PENDING');
    const at = new Date();
    await markPayerMismatch(tx, row.id, at, PAYER_MISMATCH, payer);
    const failed: DepositRow = { ...row, status: 'failed', failedAt: at, failureReason: PAYER_MISMATCH, updatedAt: at };
    // The reply and the event say who paid (the CPF masked): a client reading more than the status sees why.
    const deposit = { ...depositView(failed), payer: { cpf: maskCpf(normaliseCpf(payer.cpf)) } };
    await writeEvent(tx, 'payments', { operatorId: row.operatorId, brandId: row.brandId, environment: row.environment }, 'deposit.failed', {
      deposit,
      refundRequired: true,
    });
    return { status: 200, body: deposit };
  });
}

/** A CPF as shown outside our team: its middle six digits only (`***.456.789-**`). */
function maskCpf(cpf: string): string {
  return `***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**`;
}
