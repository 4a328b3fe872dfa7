// The launch page's operator check (@bo/play's `operatorRefusal`, given by the gateway): the page
// and every round of a suspended operator's session are refused, whatever token the page holds.
// Operators live in the operators service, sessions in the wallet: the wallet says once which
// operator a token's session belongs to (games.play.owner; it never changes, so it is kept per
// token), and the operator's status comes from a lease of OPERATOR_STATUS_LEASE_MS (the kit's
// operator-status-lease.ts), which a status change waits out before it answers, so a suspension is
// in force on every replica before the admin request that made it answers (docs/games.md, "Stopping play").
import type { NatsConnection } from '@nats-io/transport-node';
import { AppError, gamePlayMessages, requestOperation, type ErrorBody, type OperationReply, type PlayOwner } from '@bo/contracts';

const OPERATOR_SUSPENDED_MESSAGE = 'Play is suspended: the operator of this site is suspended.';

export interface OperatorCheckDeps {
  /** games.play.owner for a token. */
  askOwner(token: string, requestId: string): Promise<OperationReply<PlayOwner>>;
  /** The operator's status (a lease that a change of status waits out); undefined when unknown. */
  operatorStatus(operatorId: string, requestId: string): Promise<'active' | 'suspended' | undefined>;
  /** Tokens whose operator is kept (default 10 000; the oldest go first). */
  maxOwners?: number;
}

/** The refusal of a token's page or round because of its operator (or its token), or undefined. */
export type OperatorCheck = (token: string, requestId: string) => Promise<ErrorBody | undefined>;

export function createOperatorCheck(deps: OperatorCheckDeps): OperatorCheck {
  const max = deps.maxOwners ?? 10_000;
  // token → operator id, only from the wallet's answers to genuine tokens.
  const owners = new Map<string, string>();
  return async (token, requestId) => {
    let operatorId = owners.get(token);
    if (operatorId === undefined) {
      const owner = await deps.askOwner(token, requestId);
      // A forged or expired token: the wallet's own refusal, the one the round would get.
      if (!owner.ok) return owner.error;
      operatorId = owner.body.operatorId;
      if (owners.size >= max) owners.delete(owners.keys().next().value!);
      owners.set(token, operatorId);
    }
    // An unknown operator is refused as well: fail closed.
    if ((await deps.operatorStatus(operatorId, requestId)) !== 'active') return new AppError('OPERATOR_SUSPENDED', OPERATOR_SUSPENDED_MESSAGE).toBody();
    return undefined;
  };
}

/** games.play.owner over NATS, asked as the gateway with its deadline. */
export function askOwnerOverNats(o: { nc: NatsConnection; natsPrefix: string; rpcTimeoutMs: number }): OperatorCheckDeps['askOwner'] {
  return (token, requestId) =>
    requestOperation<PlayOwner>(
      o.nc,
      gamePlayMessages.owner.subject,
      { ctx: { requestId, scope: { kind: 'internal', service: 'gateway' } }, params: { token }, query: {}, body: {} },
      { prefix: o.natsPrefix, timeoutMs: o.rpcTimeoutMs },
    );
}
