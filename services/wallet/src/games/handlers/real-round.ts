// A real-money round: ONE database transaction that locks the session row (rounds of a session
// are serialised, clientRoundId is checked under it), then the player's account row (every money
// move of the player is serialised), checks the stake against `available − held`, draws, posts
// BET (and WIN) against the brand's game-clearing account and inserts the round naming its
// entries. The commit makes the round and its money durable together; a retry with the same
// clientRoundId finds the round and returns it, never a second debit (docs/games.md, docs/money.md).
import { newId, validationError } from '@bo/contracts';
import { compareMoney, crashPoint, formatMoney, type HandlerResult } from '@bo/service-kit';
import { GameRoundEntity, type GameSessionRow } from '../persistence/entities.ts';
import { decideRound } from '../domain/rounds.ts';
import { insufficientFunds, lockPlayerForRound, postRoundMoney, stakeableOf } from '../../ledger/game-round.ts';
import type { GamesContext } from './context.ts';
import { assertStillMayPlay } from './player-check.ts';
import { openSessionByToken } from './play-session.ts';
import { builtInKindOf, findPriorRound, nextSeq, roundReply, type RoundRequest } from './round-records.ts';

export async function playRealRound(
  ctx: GamesContext, req: RoundRequest & { session: Pick<GameSessionRow, 'brandId' | 'playerId'>; requestId: string },
): Promise<HandlerResult> {
  const { token, kind, input } = req;
  if (!input.clientRoundId) {
    // Without it a retried request could not be told from a new bet.
    throw validationError('body', [{ path: '/clientRoundId', message: 'is required for real-money rounds' }]);
  }
  // Asked on every round, so a session never outlives a self-exclusion, a suspension or a KYC
  // revocation. Asked before the transaction: no lock or connection is held while players answers.
  await assertStillMayPlay(ctx, req.session, req.requestId);

  const out = await ctx.deps.orm.em.fork().transactional(async (tx) => {
    const { session, game } = await openSessionByToken(ctx, tx, token, { lock: true });
    builtInKindOf(game);
    const prior = await findPriorRound(tx, session.id, input);
    if (prior) return { reply: roundReply(prior, game), fresh: false };

    const player = await lockPlayerForRound(tx, session.brandId, session.playerId, session.currency);
    const amount = formatMoney(input.amount);
    const before = stakeableOf(player);
    if (compareMoney(amount, before) > 0) throw insufficientFunds(before);
    const decision = decideRound(kind, input, ctx.rng);
    const roundId = newId('gameRound');
    const entries = await postRoundMoney(tx, player, { brandId: session.brandId, currency: session.currency, roundId, amount, payout: decision.payout });
    const round = tx.create(GameRoundEntity, {
      id: roundId, sessionId: session.id, seq: await nextSeq(tx, session.id), clientRoundId: input.clientRoundId,
      amount, payout: decision.payout, win: decision.win, outcome: decision.outcome,
      balanceBefore: before, balanceAfter: stakeableOf(player),
      betEntryId: entries.betEntryId, winEntryId: entries.winEntryId, createdAt: new Date(),
    });
    await tx.flush();
    // Everything is written but not committed: a death here must leave no trace of the round.
    crashPoint('wallet.round.before-commit');
    return { reply: roundReply(round, game), fresh: true };
  });
  // The round and its money are committed; the caller may never hear of it. A retry with the
  // same clientRoundId returns this round.
  if (out.fresh) crashPoint('wallet.round.after-commit');
  return out.reply;
}
