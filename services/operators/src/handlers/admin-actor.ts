import { adminScopeOf } from '@bo/service-kit';

/** Who the audit log names and the request it was made in, from an admin operation's request (an admin scope only). */
export function actorAndRequest(req: Parameters<typeof adminScopeOf>[0]): readonly [actor: string, requestId: string] {
  return [adminScopeOf(req).actor, req.ctx.requestId] as const;
}
