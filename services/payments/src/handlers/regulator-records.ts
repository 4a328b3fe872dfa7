// payments.regulator.records (internal, read only): payments' records of the deposits and
// withdrawals the daily regulator file lists (services/compliance, docs/aml.md). The file takes
// which money moved on the day from the wallet's ledger (its times decide the day) and the rest of
// each record from here: method, PSP reference, payer, destination, status, request time.
import type { regulatorFileMessages } from '@bo/contracts';
import { formatMoney, internalScopeOf, isoTime, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { regulatorDeposits, regulatorWithdrawals } from '../store/regulator-records.ts';

export function regulatorRecords(deps: ServiceDeps): HandlerOf<typeof regulatorFileMessages.records> {
  return async (req) => {
    internalScopeOf(req);
    const { brandId, depositIds, withdrawalIds } = req.body;
    const [deposits, withdrawals] = await Promise.all([
      depositIds.length === 0 ? [] : regulatorDeposits(deps.sql, brandId, depositIds),
      withdrawalIds.length === 0 ? [] : regulatorWithdrawals(deps.sql, brandId, withdrawalIds),
    ]);
    return {
      status: 200,
      body: {
        deposits: deposits.map((d) => ({
          depositId: d.id,
          playerId: d.player_id,
          amount: formatMoney(d.amount),
          currency: d.currency,
          method: d.method,
          externalReference: d.external_reference,
          payerCpf: d.payer_cpf,
          status: d.status,
          createdAt: isoTime(d.created_at),
          confirmedAt: isoTime(d.confirmed_at),
        })),
        withdrawals: withdrawals.map((w) => ({
          withdrawalId: w.id,
          playerId: w.player_id,
          amount: formatMoney(w.amount),
          currency: w.currency,
          method: w.method,
          destination: w.destination,
          status: w.status,
          requestedAt: isoTime(w.created_at),
        })),
      },
    };
  };
}
