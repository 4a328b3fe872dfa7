// A real-money round: ONE database transaction that locks the session row (rounds of a session
// are serialised, clientRoundId is checked under it), then the player's account row (every money
// move of the player is serialised), checks the stake against `available − held`, draws, posts
// BET (and WIN) against the brand's game-clearing account (appended, never locked) and inserts the
// round naming its entries. The commit makes the round and its money durable together; a retry
// with the same clientRoundId finds the round and returns it, never a second debit
// (docs/games.md, docs/money.md). Plain SQL, no unit of work: six statements, one commit.
import { AppError, newId, validationError } from '@bo/contracts';
import { compareMoney, crashPoint, formatMoney, type HandlerResult } from '@bo/service-kit';
import type { EntityManager } from '@mikro-orm/postgresql';
import { decideRound } from '../domain/rounds.ts';
import { gameClearingAccount, insufficientFunds, lockPlayerForRound, postRoundMoney, stakeableOf } from '../../ledger/game-round.ts';
import type { GamesContext } from './context.ts';
import { assertStillMayPlay } from './player-check.ts';
import { verifyLaunchToken } from './play-session.ts';
import { findRoundByClientId, insertRealRound, roundReply, type RoundRequest } from './round-records.ts';

interface LockedSession { id: string; brandId: string; playerId: string; currency: string; mode: string; expiresAt: Date; gameId: string; gameKind: string }

/** The session row locked for the round, with its game; the same refusals as openSessionByToken. */
async function lockSession(tx: EntityManager, sessionId: string): Promise<LockedSession> {
  const rows = await tx.execute<LockedSession[]>(
    `select s.id, s.brand_id as "brandId", s.player_id as "playerId", s.currency, s.mode, s.expires_at as "expiresAt",
            g.id as "gameId", g.kind as "gameKind"
     from wallet.game_sessions s join wallet.games g on g.id = s.game_id where s.id = ? for update of s`, [sessionId]);
  const session = rows[0];
  if (!session) throw new AppError('LAUNCH_TOKEN_INVALID');
  if (new Date(session.expiresAt).getTime() <= Date.now()) throw new AppError('LAUNCH_TOKEN_EXPIRED');
  if (session.gameKind === 'external') throw new AppError('GAME_NOT_FOUND', 'This game is played at its provider, not on this page.');
  return session;
}

export async function playRealRound(
  ctx: GamesContext, req: RoundRequest & { session: { brandId: string; playerId: string; currency: string }; requestId: string },
): Promise<HandlerResult> {
  const { token, kind, input } = req;
  const clientRoundId = input.clientRoundId;
  if (!clientRoundId) {
    // Without it a retried request could not be told from a new bet.
    throw validationError('body', [{ path: '/clientRoundId', message: 'is required for real-money rounds' }]);
  }
  // Checked on every round, so a session never outlives a self-exclusion, a suspension or a KYC
  // revocation. Before the transaction: no lock or connection is held while players answers.
  await assertStillMayPlay(ctx, req.session, req.requestId);
  const clearingAccountId = await gameClearingAccount(ctx.deps.orm.em, req.session.brandId, req.session.currency);

  const out = await ctx.deps.orm.em.fork().transactional(async (tx) => {
    const session = await lockSession(tx, verifyLaunchToken(ctx, token));
    const game = { id: session.gameId };
    const prior = await findRoundByClientId(tx, session.id, clientRoundId);
    if (prior) return { reply: roundReply(prior, game), fresh: false };

    const player = await lockPlayerForRound(tx, session.brandId, session.playerId, session.currency);
    const amount = formatMoney(input.amount);
    const before = stakeableOf(player);
    if (compareMoney(amount, before) > 0) throw insufficientFunds(before);
    const decision = decideRound(kind, input, ctx.rng);
    const roundId = newId('gameRound');
    const entries = await postRoundMoney(tx, player, {
      brandId: session.brandId, currency: session.currency, roundId, amount, payout: decision.payout, clearingAccountId,
    });
    const round = await insertRealRound(tx, {
      id: roundId, sessionId: session.id, clientRoundId, amount, payout: decision.payout, win: decision.win, outcome: decision.outcome,
      balanceBefore: before, balanceAfter: stakeableOf(player), betEntryId: entries.betEntryId, winEntryId: entries.winEntryId,
    });
    // Everything is written but not committed: a death here must leave no trace of the round.
    crashPoint('wallet.round.before-commit');
    return { reply: roundReply(round, game), fresh: true };
  });
  // The round and its money are committed; the caller may never hear of it. A retry with the
  // same clientRoundId returns this round.
  if (out.fresh) crashPoint('wallet.round.after-commit');
  return out.reply;
}
