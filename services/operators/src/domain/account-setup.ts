// What a person must do before any power is theirs (issue #56): choose their own password in place
// of a one-time one, and turn on TOTP where their role requires it. A console session with a step
// left opens only the setup; a personal token of such a person is refused everything.
import type { AdminRole, SetupStep } from '@bo/contracts';

export interface AccountState {
  role: AdminRole;
  passwordMustChange: boolean;
  secondFactor: boolean;
}

export function setupSteps(m: AccountState, totpRequiredRoles: readonly AdminRole[]): SetupStep[] {
  const steps: SetupStep[] = [];
  if (m.passwordMustChange) steps.push('password');
  // The regulator's inspectors sign in with TOTP whatever the setting (issue #69): they read every operator's players.
  if (!m.secondFactor && (totpRequiredRoles.includes(m.role) || m.role === 'regulator')) steps.push('secondFactor');
  return steps;
}
