// GET /me, answered by the gateway: the calling credential's operator, brand and environment (from
// the credential cache), the API version, and the operator's compliance profile with what it implies
// (compliance-profiles.ts; unanswered, 503).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_VERSION, PROFILE_RULES, type Me } from '@bo/contracts';
import type { ComplianceProfiles } from './compliance-profiles.ts';

export function getMe(profiles: ComplianceProfiles) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const c = req.credential!;
    const profile = await profiles(c.operatorId, req.id);
    const me: Me = {
      operator: { id: c.operatorId, name: c.operatorName, environment: c.environment },
      brand: { id: c.brand.id, name: c.brand.name, currency: c.brand.currency, isSandbox: c.environment === 'sandbox' },
      apiVersion: API_VERSION,
      compliance: {
        profile: profile.profile,
        timeZone: profile.timeZone,
        coolingOffHours: profile.coolingOffHours,
        realityCheckMinutes: profile.realityCheckMinutes,
        rules: [...PROFILE_RULES[profile.profile]],
      },
    };
    return reply.send(me);
  };
}
