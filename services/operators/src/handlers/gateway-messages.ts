// What the gateway asks besides the admin operations (contracts operators.ts): a credential by its
// key's hash (on a miss of its cache), an operator's status (the play page's check), who a service
// token or a console session is, the console's sign-in, password change and second factor. All
// internal: the gateway's scope only. And a brand by id, asked by the services that make something
// for a brand only once it is one of ours (compliance's regulator files, issue #61).
import { brandMessages, operatorMessages as m } from '@bo/contracts';
import { handle, internalScopeOf, type Handler } from '@bo/service-kit';
import { credentialByKeyHash, operatorStatus } from '../store/credentials.ts';
import { brandById } from '../store/brands.ts';
import { recordPersonalDataReads } from '../store/personal-data-reads.ts';
import type { OperatorsRuntime } from '../runtime.ts';

export function gatewayMessageHandlers(rt: OperatorsRuntime): Record<string, Handler> {
  const { sql } = rt.deps;
  return {
    ...handle(m.credential, async (req) => {
      internalScopeOf(req);
      const credential = await credentialByKeyHash(sql, req.body.keyHash);
      return { body: { credential: credential ?? null } };
    }),
    ...handle(brandMessages.get, async (req) => {
      internalScopeOf(req);
      return { body: { brand: (await brandById(sql, req.body.brandId)) ?? null } };
    }),
    ...handle(m.status, async (req) => {
      internalScopeOf(req);
      return { body: { status: (await operatorStatus(sql, req.body.operatorId)) ?? null } };
    }),
    ...handle(m.identifyToken, async (req) => {
      internalScopeOf(req);
      return { body: { identity: (await rt.team.identify(req.body.bearer)) ?? null } };
    }),
    ...handle(m.signIn, async (req) => {
      internalScopeOf(req);
      const { email, password, totp, ...origin } = req.body;
      return { body: await rt.sessions.signIn(email, password, totp, origin) };
    }),
    ...handle(m.identifySession, async (req) => {
      internalScopeOf(req);
      return { body: { session: (await rt.sessions.identify(req.body.token)) ?? null } };
    }),
    ...handle(m.signOut, async (req) => {
      internalScopeOf(req);
      await rt.sessions.signOut(req.body.token);
      return { body: {} };
    }),
    ...handle(m.changePassword, async (req) => {
      internalScopeOf(req);
      const { currentPassword, newPassword, token, address, requestId } = req.body;
      await rt.sessions.changePassword(req.body, currentPassword, newPassword, { address, requestId }, token);
      return { body: {} };
    }),
    ...handle(m.startSecondFactor, async (req) => {
      internalScopeOf(req);
      return { body: await rt.sessions.startSecondFactor(req.body) };
    }),
    ...handle(m.recordPersonalDataReads, async (req) => {
      internalScopeOf(req);
      return { body: { recorded: await recordPersonalDataReads(sql, req.body) } };
    }),
    ...handle(m.confirmSecondFactor, async (req) => {
      internalScopeOf(req);
      await rt.sessions.confirmSecondFactor(req.body, req.body.code, req.body);
      return { body: {} };
    }),
  };
}
