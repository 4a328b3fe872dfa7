// The admin API's game register (issue #59 items 5 and 6; docs/games.md, "Certified games and RTP as
// measured"): a provider's games with their certificates and the state of each now, a certificate
// recorded or corrected (audited in the change's transaction, as every admin change), and a month's
// RTP as measured beside the certified RTP.
import {
  AppError,
  CERTIFICATE_WARNING_DAYS,
  GAME_REGISTER_TIME_ZONE,
  GAME_RTP_SAMPLE,
  newId,
  validationError,
  type gameRegisterOperations,
} from '@bo/contracts';
import { formatMoney, isoTime, ruleClock, type HandlerOf, type SqlRunner } from '@bo/service-kit';
import { certificateState, judgeRtp } from '../domain/game-register.ts';
import {
  asCertificate,
  certificatesEnding,
  findCertificate,
  monthRange,
  providerGamesWithCertificates,
  putCertificate,
  rtpOfMonth,
} from '../store/game-register.ts';
import { findProvider, findProviderGame, lockProvider } from '../store/registry.ts';
import { auditedChanges } from './audited.ts';
import type { ProvidersContext } from './context.ts';

type Ops = typeof gameRegisterOperations;
const DAY_MS = 86_400_000;

async function providerExists(sql: SqlRunner, id: string): Promise<void> {
  if (!(await findProvider(sql, id))) throw new AppError('PROVIDER_NOT_FOUND');
}

const invalid = (path: string, message: string) => validationError('body', [{ path, message }]);

export function gameRegisterHandlers(ctx: ProvidersContext) {
  const sql = ctx.deps.sql;
  const audited = auditedChanges(ctx);

  const list: HandlerOf<Ops['adminListGameRegister']> = async (req) => {
    await providerExists(sql, req.params.id);
    const now = ruleClock.now();
    const games = await providerGamesWithCertificates(sql, req.params.id);
    const data = games.map((g) => {
      const valid = g.certificates.find((c) => c.validFrom.getTime() <= now.getTime() && c.validTo.getTime() > now.getTime());
      const ended = g.certificates.some((c) => c.validTo.getTime() <= now.getTime());
      const { state, daysLeft } = certificateState(valid?.validTo, ended, now);
      const current = valid ?? g.certificates[0];
      return {
        gameId: g.gameId,
        gameCode: g.gameCode,
        name: g.name,
        enabled: g.enabled,
        state,
        daysLeft,
        current: current ? asCertificate(current) : null,
        certificates: g.certificates.map(asCertificate),
      };
    });
    return { status: 200, body: { data } };
  };

  const put: HandlerOf<Ops['adminPutGameCertificate']> = async (req) => {
    const b = req.body;
    if (b.validUntil < b.issuedOn) throw invalid('/validUntil', 'is before issuedOn');
    if (Number(b.certifiedRtp) <= 0) throw invalid('/certifiedRtp', 'must be more than 0');
    if (b.volatility != null && Number(b.volatility) <= 0) throw invalid('/volatility', 'must be more than 0');
    const { id, gameCode, certificateNumber } = req.params;
    const certificate = await audited(req, 'adminPutGameCertificate', async (tx) => {
      if (!(await lockProvider(tx, id))) throw new AppError('PROVIDER_NOT_FOUND');
      const game = await findProviderGame(tx, id, gameCode);
      if (!game) throw new AppError('GAME_NOT_FOUND', `The provider has no game ${gameCode} in our catalogue.`);
      const before = await findCertificate(tx, game.id, certificateNumber);
      const after = asCertificate(
        await putCertificate(tx, { ...b, id: before?.id ?? newId('gameCertificate'), providerId: id, gameId: game.id, certificateNumber }),
      );
      return { answer: after, audit: { target: `provider:${id}`, before: before ? asCertificate(before) : null, after } };
    });
    return { status: 200, body: certificate };
  };

  const rtp: HandlerOf<Ops['adminGameRtp']> = async (req) => {
    await providerExists(sql, req.params.id);
    const { month } = req.query;
    const { from, to } = await monthRange(sql, month);
    const now = ruleClock.now();
    // The certificate of the month: valid at its end, or now while the month runs.
    const certifiedAt = new Date(Math.min(to.getTime() - 1, now.getTime()));
    const rows = await rtpOfMonth(sql, { providerId: req.params.id, from, to, certifiedAt });
    return {
      status: 200,
      body: {
        providerId: req.params.id,
        month,
        timeZone: GAME_REGISTER_TIME_ZONE,
        from: isoTime(from),
        to: isoTime(to),
        sample: { ...GAME_RTP_SAMPLE },
        data: rows.map((r) => ({
          gameId: r.gameId,
          gameCode: r.gameCode,
          name: r.name,
          currency: r.currency,
          rounds: r.rounds,
          stakes: formatMoney(r.stakes),
          wins: formatMoney(r.wins),
          certifiedRtp: r.certifiedRtp,
          ...judgeRtp(r),
        })),
      },
    };
  };

  const warnings: HandlerOf<Ops['adminCertificateWarnings']> = async () => {
    const now = ruleClock.now();
    const rows = await certificatesEnding(sql, new Date(now.getTime() + CERTIFICATE_WARNING_DAYS * DAY_MS));
    const data = rows.map(({ validTo, ...r }) => {
      const { state, daysLeft } = certificateState(validTo.getTime() > now.getTime() ? validTo : undefined, true, now);
      return { ...r, state: state as 'expiring' | 'expired', daysLeft };
    });
    return { status: 200, body: { data } };
  };

  return { adminCertificateWarnings: warnings, adminListGameRegister: list, adminPutGameCertificate: put, adminGameRtp: rtp };
}
