// What the gateway asks besides the admin operations (contracts operators.ts): a credential by its
// key's hash (on a miss of its cache), an operator's status (the play page's check), who a service
// token or a console session is, the console's sign-in, password change and second factor, and the audit row of an
// admin operation another service served. All internal: the gateway's scope only.
import { operatorMessages as m } from '@bo/contracts';
import { handle, internalScopeOf, isoTime, type Handler } from '@bo/service-kit';
import { recordAudit } from '../store/audit.ts';
import type { OperatorsRuntime } from '../runtime.ts';

interface CredentialRow {
  operator_id: string;
  operator_name: string;
  status: 'active' | 'suspended';
  rate_limit_per_minute: number;
  allowed_ips: string[];
  brand_id: string;
  brand_name: string;
  currency: string;
  environment: 'sandbox' | 'production';
  secret_sealed: string;
  expires_at: string | null;
}

export function gatewayMessageHandlers(rt: OperatorsRuntime): Record<string, Handler> {
  const { sql } = rt.deps;
  return {
    ...handle(m.credential, async (req) => {
      internalScopeOf(req);
      const [r] = await sql.query<CredentialRow>(
        `select o.id operator_id, o.name operator_name, o.status, o.rate_limit_per_minute, o.allowed_ips,
                b.id brand_id, b.name brand_name, b.currency, c.environment, c.secret_sealed, c.expires_at
           from operators.credentials c
           join operators.operators o on o.id = c.operator_id
           join operators.brands b on b.id = c.brand_id
          where c.key_hash = ? and c.revoked_at is null`,
        [req.body.keyHash],
      );
      const credential = r && {
        operatorId: r.operator_id,
        operatorName: r.operator_name,
        operatorStatus: r.status,
        environment: r.environment,
        brand: { id: r.brand_id, name: r.brand_name, currency: r.currency },
        rateLimitPerMinute: r.rate_limit_per_minute,
        allowedIps: r.allowed_ips,
        secretSealed: r.secret_sealed,
        expiresAt: r.expires_at === null ? null : isoTime(r.expires_at),
      };
      return { body: { credential: credential ?? null } };
    }),
    ...handle(m.status, async (req) => {
      internalScopeOf(req);
      const [row] = await sql.query<{ status: 'active' | 'suspended' }>('select status from operators.operators where id = ?', [req.body.operatorId]);
      return { body: { status: row?.status ?? null } };
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
    ...handle(m.confirmSecondFactor, async (req) => {
      internalScopeOf(req);
      await rt.sessions.confirmSecondFactor(req.body, req.body.code, req.body);
      return { body: {} };
    }),
    ...handle(m.recordAudit, async (req) => {
      internalScopeOf(req);
      await recordAudit(sql, req.body);
      return { body: {} };
    }),
  };
}
