// An operator's compliance profile set as our team must (issue #56): each change a person's decision
// with its reason; turning the br-spa rules off a request that a second person confirms. For
// tests that switch a profile through the players service (as the gateway asks it).
import type { AdminScope, OperationReply, Scope } from '@bo/contracts';

type Call = (subject: string, scope: Scope, opts: { params?: Record<string, string>; body?: unknown }) => Promise<OperationReply<any>>;

/** Two stand-in people of our team: four eyes tells them apart. */
const REQUESTER: AdminScope = { kind: 'admin', actor: 'stand-in:requester', personId: 'actor:stand-in:requester' };
const CONFIRMER: AdminScope = { kind: 'admin', actor: 'stand-in:confirmer', personId: 'actor:stand-in:confirmer' };

/**
 * Sets the profile (and settings) with a reason; where that turns the br-spa rules off, one
 * stand-in requests it and another confirms it. The last reply (the profile, or the confirmed change).
 */
export async function setComplianceProfile(
  call: Call,
  operatorId: string,
  profile: 'off' | 'br-spa',
  settings: Record<string, unknown> = {},
): Promise<OperationReply<any>> {
  const body = { profile, ...settings, reason: `the test sets ${profile}` };
  const set = await call('players.admin.setCompliance', REQUESTER, { params: { id: operatorId }, body });
  if (set.ok || set.error.code !== 'FOUR_EYES_REQUIRED') return set;
  const requested = await call('players.admin.requestComplianceChange', REQUESTER, { params: { id: operatorId }, body });
  if (!requested.ok) return requested;
  return call('players.admin.confirmComplianceChange', CONFIRMER, {
    params: { id: operatorId, changeId: requested.body.id },
    body: { reason: 'a second person confirms' },
  });
}
