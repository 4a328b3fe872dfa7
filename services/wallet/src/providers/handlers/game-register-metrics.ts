// The game register on the wallet's metrics (issue #59 items 5 and 6; docs/games.md), read when
// scraped, every state from the start (0), the same on every replica (alerts read max):
// - bo_game_certificates{state}: enabled casino games of enabled providers by their certificate now,
//   valid, expiring (within CERTIFICATE_WARNING_DAYS), expired (none valid, one ended), missing;
// - bo_game_rtp_outside_certificate: games whose RTP as measured this month or last month, over a
//   large enough sample, is outside what their certificate allows (GAME_RTP_SAMPLE). A month of
//   rounds is a larger read: computed at most once per RTP_EVERY_MS per replica, the last count served between.
import { Gauge, type Registry } from 'prom-client';
import { CERTIFICATE_STATES, CERTIFICATE_WARNING_DAYS, GAME_REGISTER_TIME_ZONE } from '@bo/contracts';
import { ruleClock, type SqlRunner } from '@bo/service-kit';
import { judgeRtp, monthsAround } from '../domain/game-register.ts';
import { certificateCounts, monthRange, rtpOfMonth } from '../store/game-register.ts';

const DAY_MS = 86_400_000;
const RTP_EVERY_MS = 600_000;

/** The games outside their certificate over this month and the last (a game counted once). */
export async function gamesOutsideCertificate(sql: SqlRunner, now: Date): Promise<number> {
  const outside = new Set<string>();
  for (const month of monthsAround(now, GAME_REGISTER_TIME_ZONE)) {
    const { from, to } = await monthRange(sql, month);
    const certifiedAt = new Date(Math.min(to.getTime() - 1, now.getTime()));
    for (const r of await rtpOfMonth(sql, { from, to, certifiedAt })) if (judgeRtp(r).outside) outside.add(r.gameId);
  }
  return outside.size;
}

export function registerGameRegisterMetrics(registry: Registry, sql: SqlRunner): void {
  if (!registry.getSingleMetric('bo_game_certificates')) {
    new Gauge({
      name: 'bo_game_certificates',
      help: `Enabled casino games of enabled providers by their certificate now: valid, expiring (within ${CERTIFICATE_WARNING_DAYS} days), expired (none valid, one ended), missing (never certified); read when scraped.`,
      labelNames: ['state'] as const,
      registers: [registry],
      async collect() {
        const now = ruleClock.now();
        const counts = await certificateCounts(sql, now, new Date(now.getTime() + CERTIFICATE_WARNING_DAYS * DAY_MS));
        for (const state of CERTIFICATE_STATES) this.set({ state }, counts[state]);
      },
    });
  }
  if (!registry.getSingleMetric('bo_game_rtp_outside_certificate')) {
    let last: { at: number; count: number } | undefined;
    new Gauge({
      name: 'bo_game_rtp_outside_certificate',
      help: 'Casino games whose RTP as measured this month or last month, over a large enough sample, is outside what their certificate allows (computed at most every 10 minutes).',
      registers: [registry],
      async collect() {
        if (!last || Date.now() - last.at >= RTP_EVERY_MS) last = { at: Date.now(), count: await gamesOutsideCertificate(sql, ruleClock.now()) };
        this.set(last.count);
      },
    });
  }
}
