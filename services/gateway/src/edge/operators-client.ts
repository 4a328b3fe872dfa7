// The gateway's side of the operators service (which owns operators, keys, our team, console
// sessions and the audit log): the messages of contracts' operators.ts, asked over NATS as the
// gateway. Only a miss of the credential cache asks for a credential; the public request path asks
// nothing else here (the play page's operator check asks for a status, as it read it before).
import type { NatsConnection } from '@nats-io/transport-node';
import { callOperation, type MessageDefinition, operatorMessages as m, type SessionIdentity } from '@bo/contracts';
import type { ConsoleAccounts } from '@bo/console';
import type { Static } from '@sinclair/typebox';
import type { CredentialLoader } from './auth/credential-cache.ts';

const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/;
const SERVICE_TOKEN = /^bo_tok_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/;

export interface OperatorsClient {
  credential: CredentialLoader;
  status(operatorId: string, requestId: string): Promise<'active' | 'suspended' | undefined>;
  identifyToken(bearer: string, requestId: string): Promise<Static<typeof m.identifyToken.reply>['identity']>;
  /** The console's accounts port (@bo/console). */
  accounts: ConsoleAccounts<SessionIdentity>;
  /** Records our team's reads of players' personal data (issue #69), before the gateway answers them. */
  recordPersonalDataReads(reads: Static<typeof m.recordPersonalDataReads.body>): Promise<void>;
}

export function operatorsClient(o: { nc: NatsConnection; natsPrefix: string; rpcTimeoutMs: number }): OperatorsClient {
  const ask = <M extends MessageDefinition>(message: M, body: Static<NonNullable<M['body']>>, requestId = 'gateway') =>
    callOperation<Static<M['reply']>>(
      o.nc,
      message.subject,
      { ctx: { requestId, scope: { kind: 'internal', service: 'gateway' } }, params: {}, query: {}, body },
      { prefix: o.natsPrefix, timeoutMs: o.rpcTimeoutMs },
    );
  return {
    credential: async (keyHash) => (await ask(m.credential, { keyHash })).credential,
    status: async (operatorId, requestId) => (await ask(m.status, { operatorId }, requestId)).status ?? undefined,
    identifyToken: async (bearer, requestId) => (SERVICE_TOKEN.test(bearer) ? (await ask(m.identifyToken, { bearer }, requestId)).identity : null),
    accounts: {
      signIn: (email, password, totp, origin) => ask(m.signIn, { email, password, ...(totp !== undefined ? { totp } : {}), ...origin }, origin.requestId),
      // A cookie that cannot be a session token is no session: not worth a question.
      identify: async (token) => (SESSION_TOKEN.test(token) ? ((await ask(m.identifySession, { token })).session ?? undefined) : undefined),
      signOut: async (token) => {
        if (SESSION_TOKEN.test(token)) await ask(m.signOut, { token });
      },
      startSecondFactor: (who) => ask(m.startSecondFactor, { memberId: who.memberId, email: who.email, secondFactor: who.secondFactor }),
      changePassword: async (who, token, currentPassword, newPassword, origin) => {
        const person = { memberId: who.memberId, email: who.email, secondFactor: who.secondFactor };
        await ask(
          m.changePassword,
          { ...person, ...origin, token, ...(currentPassword === undefined ? {} : { currentPassword }), newPassword },
          origin.requestId,
        );
      },
      confirmSecondFactor: async (who, code, origin) => {
        await ask(m.confirmSecondFactor, { memberId: who.memberId, email: who.email, secondFactor: who.secondFactor, code, ...origin }, origin.requestId);
      },
    },
    recordPersonalDataReads: async (reads) => {
      await ask(m.recordPersonalDataReads, reads, reads.requestId);
    },
  };
}
