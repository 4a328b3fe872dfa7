// The game register's rules as plain functions (issue #59 items 5 and 6; docs/games.md): a game's
// certificate state now, and whether a month's RTP as measured is judged and outside what its
// certificate allows (GAME_RTP_SAMPLE says the rule and why).
import { CERTIFICATE_WARNING_DAYS, GAME_RTP_SAMPLE, type CertificateState } from '@bo/contracts';

const DAY_MS = 86_400_000;

/**
 * The state of a game whose certificate valid now ends at `validTo` (undefined: none is valid now),
 * `ended`: it had one that ended before now. `daysLeft`: whole days left (0 on the last day).
 */
export function certificateState(validTo: Date | undefined, ended: boolean, now: Date): { state: CertificateState; daysLeft: number | null } {
  if (!validTo) return { state: ended ? 'expired' : 'missing', daysLeft: null };
  const left = validTo.getTime() - now.getTime();
  return { state: left <= CERTIFICATE_WARNING_DAYS * DAY_MS ? 'expiring' : 'valid', daysLeft: Math.floor(left / DAY_MS) };
}

export interface RtpSample {
  /** Σ stake and Σ win of the month's settled rounds (decimal strings), Σ stake² (a number). */
  stakes: string;
  wins: string;
  stakeSquares: number;
  /** The certificate's RTP (percent) and volatility; null without a certificate / without the laboratory's figure. */
  certifiedRtp: string | null;
  volatility: string | null;
}

export interface RtpJudgement {
  measuredRtp: string | null;
  effectiveRounds: number;
  tolerance: string | null;
  judged: boolean;
  outside: boolean | null;
}

/**
 * RTP as measured, and how it stands against the certificate: judged with at least
 * `minEffectiveRounds` stake-weighted rounds and a certificate; outside when further from the
 * certified RTP than `z × σ / √n` (percentage points).
 */
export function judgeRtp(s: RtpSample): RtpJudgement {
  const stakes = Number(s.stakes);
  const wins = Number(s.wins);
  const measured = stakes > 0 ? (wins / stakes) * 100 : null;
  const effectiveRounds = s.stakeSquares > 0 ? Math.floor((stakes * stakes) / s.stakeSquares) : 0;
  const judged = measured !== null && s.certifiedRtp !== null && effectiveRounds >= GAME_RTP_SAMPLE.minEffectiveRounds;
  if (!judged) return { measuredRtp: measured === null ? null : measured.toFixed(2), effectiveRounds, tolerance: null, judged: false, outside: null };
  const sigma = s.volatility === null ? GAME_RTP_SAMPLE.defaultVolatility : Number(s.volatility);
  const tolerance = ((GAME_RTP_SAMPLE.z * sigma) / Math.sqrt(effectiveRounds)) * 100;
  return {
    measuredRtp: measured!.toFixed(2),
    effectiveRounds,
    tolerance: tolerance.toFixed(2),
    judged: true,
    outside: Math.abs(measured! - Number(s.certifiedRtp)) > tolerance,
  };
}

/** The month `YYYY-MM` holding `at` in `timeZone`, and the one before it. */
export function monthsAround(at: Date, timeZone: string): [string, string] {
  const [y, m] = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' }).format(at).split('-').map(Number) as [number, number];
  const previous = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
  return [`${y}-${String(m).padStart(2, '0')}`, previous];
}
