// payments.withdrawals.closeout (players → payments, impediments/closing.ts there): a player closed
// after an impediment hit. Whatever the player may still withdraw becomes one withdrawal to the
// player's own CPF (a PIX CPF key, the registered account we can prove is theirs) in our team's
// review queue, through the usual move (hold now, paid by the team). One per player: the request
// key `closeout`/playerId dedupes a repeat; nothing left, nothing created.
import { callOperation, type closeoutMessages, type Wallet } from '@bo/contracts';
import { compareMoney, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { findByRequestKey, insertReserving } from '../store/withdrawal-store.ts';
import { finishMove } from '../flows/withdrawal-moves.ts';
import { playerState } from '../handlers/request.ts';
import { reservingRow } from '../domain/withdrawals.ts';
import { payoutDueAtOf } from '../domain/prize-clock.ts';
import { isBrSpa } from './own-account-rules.ts';

const CLOSEOUT_SCOPE = 'closeout';

export function closeout(deps: ServiceDeps): HandlerOf<typeof closeoutMessages.closeout> {
  return async (req) => {
    const input = req.body;
    const earlier = await findByRequestKey(deps.sql, CLOSEOUT_SCOPE, input.playerId);
    if (earlier) {
      const done = await finishMove(deps, earlier.id);
      return { status: 200, body: { withdrawalId: done.id, amount: done.amount } };
    }
    const player = await playerState(deps, input.brandId, input.playerId);
    if (!player.exists || !player.cpf) return { status: 200, body: { withdrawalId: null, amount: '0.00' } };
    const wallet = await callOperation<Wallet>(
      deps.nc,
      'wallet.get',
      {
        ctx: {
          requestId: `closeout-${input.playerId}`,
          scope: { kind: 'operator', operatorId: input.operatorId, brandId: input.brandId, environment: input.environment, currency: input.currency },
        },
        params: { playerId: input.playerId },
        query: {},
        body: {},
      },
      { prefix: deps.prefix, timeoutMs: deps.config.RPC_TIMEOUT_MS },
    );
    if (compareMoney(wallet.withdrawable, '0') <= 0) return { status: 200, body: { withdrawalId: null, amount: '0.00' } };
    const now = new Date();
    // A br-spa player's: under the prize clock like any of their withdrawals (a restricted player's is never approved automatically).
    const payoutDueAt = isBrSpa(player) ? payoutDueAtOf(now) : null;
    const withdrawal = {
      playerId: input.playerId,
      amount: wallet.withdrawable,
      currency: input.currency,
      method: 'pix',
      destination: player.cpf!,
      payoutDueAt,
    };
    const request = { scope: CLOSEOUT_SCOPE, key: input.playerId };
    const id = await deps.sql.transaction((tx) => insertReserving(tx, reservingRow(input, withdrawal, request, now)));
    const done = await finishMove(deps, id);
    return { status: 200, body: { withdrawalId: done.id, amount: done.amount } };
  };
}
