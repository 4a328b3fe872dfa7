// A real-money round: ONE database transaction that locks the session row (rounds of a session
// are serialised, clientRoundId is checked under it), then the player's account row (every money
// move of the player is serialised), checks the stake against `available − held`, draws, posts
// BET (and WIN) against the brand's game-clearing account (appended, never locked) and inserts the
// round naming its entries. The commit makes the round and its money durable together; a retry
// with the same clientRoundId finds the round and returns it, never a second debit
// (docs/games.md, docs/money.md). Plain SQL, no unit of work: a first look, then BEGIN, the
// session lock, the player lock, one statement for the money and the round, COMMIT.
import { AppError, newId, validationError } from '@bo/contracts';
import { compareMoney, crashPoint, formatMoney, type HandlerResult } from '@bo/service-kit';
import type { EntityManager } from '@mikro-orm/postgresql';
import { decideRound } from '../domain/rounds.ts';
import { gameClearingAccount, insufficientFunds, lockPlayerForRound, postRoundMoney, stakeableOf } from '../../ledger/game-round.ts';
import type { GamesContext } from './context.ts';
import { assertStillMayPlay } from './player-check.ts';
import { verifyLaunchToken } from './play-session.ts';
import { findRoundByClientId, realRoundInsert, roundReply, type RoundRequest } from './round-records.ts';

interface LockedSession {
  id: string; brandId: string; playerId: string; currency: string; mode: string; expiresAt: Date; gameId: string; gameKind: string;
  priorId: string | null;
}

/**
 * The session row locked for the round, with its game and the round already played with this
 * clientRoundId, if the statement's snapshot shows it; the same refusals as openSessionByToken.
 * A round committed by a click that held the lock while this one waited is not in that snapshot:
 * the unique (session, clientRoundId) index refuses the second insert, and the caller answers
 * with the committed round.
 */
async function lockSession(tx: EntityManager, sessionId: string, clientRoundId: string): Promise<LockedSession> {
  const rows = await tx.execute<LockedSession[]>(
    `select s.id, s.brand_id as "brandId", s.player_id as "playerId", s.currency, s.mode, s.expires_at as "expiresAt",
            g.id as "gameId", g.kind as "gameKind", r.id as "priorId"
     from wallet.game_sessions s join wallet.games g on g.id = s.game_id
     left join wallet.game_rounds r on r.session_id = s.id and r.client_round_id = ?
     where s.id = ? for update of s`, [clientRoundId, sessionId]);
  const session = rows[0];
  if (!session) throw new AppError('LAUNCH_TOKEN_INVALID');
  if (new Date(session.expiresAt).getTime() <= Date.now()) throw new AppError('LAUNCH_TOKEN_EXPIRED');
  if (session.gameKind === 'external') throw new AppError('GAME_NOT_FOUND', 'This game is played at its provider, not on this page.');
  return session;
}

const isRoundReplay = (e: unknown) => (e as { code?: string; constraint?: string })?.code === '23505'
  && (e as { constraint?: string }).constraint === 'game_rounds_session_id_client_round_id_key';

export async function playRealRound(
  ctx: GamesContext, req: RoundRequest & { session: { brandId: string; playerId: string; currency: string; gameId: string }; requestId: string },
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

  const sessionId = verifyLaunchToken(ctx, token);
  const played = () => findRoundByClientId(ctx.deps.orm.em.fork(), sessionId, clientRoundId);
  const out = await ctx.deps.orm.em.fork().transactional(async (tx) => {
    const session = await lockSession(tx, sessionId, clientRoundId);
    const game = { id: session.gameId };
    if (session.priorId) return { reply: roundReply((await findRoundByClientId(tx, session.id, clientRoundId))!, game), fresh: false };

    const player = await lockPlayerForRound(tx, session.brandId, session.playerId, session.currency);
    const amount = formatMoney(input.amount);
    const before = stakeableOf(player);
    if (compareMoney(amount, before) > 0) throw insufficientFunds(before);
    const decision = decideRound(kind, input, ctx.rng);
    const roundId = newId('gameRound');
    const round = { id: roundId, sessionId: session.id, clientRoundId, amount, payout: decision.payout, win: decision.win, outcome: decision.outcome, createdAt: new Date() };
    // The BET (and WIN) and the round row naming them: one statement. The balance after is
    // known before it runs (`player` is locked and updated in place by the posting).
    let balanceAfter = '';
    await postRoundMoney(tx, player, {
      brandId: session.brandId, currency: session.currency, roundId, amount, payout: decision.payout, clearingAccountId,
    }, (entries) => {
      balanceAfter = stakeableOf(player);
      return realRoundInsert({ ...round, balanceBefore: before, balanceAfter, ...entries });
    });
    // Everything is written but not committed: a death here must leave no trace of the round.
    crashPoint('wallet.round.before-commit');
    return { reply: roundReply({ ...round, balanceAfter }, game), fresh: true };
  }).catch(async (e: unknown) => {
    // A click replayed while its first play held the session lock: the first play's round.
    const prior = isRoundReplay(e) ? await played() : undefined;
    if (!prior) throw e;
    return { reply: roundReply(prior, { id: req.session.gameId }), fresh: false };
  });
  // The round and its money are committed; the caller may never hear of it. A retry with the
  // same clientRoundId returns this round.
  if (out.fresh) crashPoint('wallet.round.after-commit');
  return out.reply;
}
