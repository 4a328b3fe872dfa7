// The one clock of a process's time rules (responsible-gaming periods and cooling-off, a pause's
// end, a self-exclusion's term): `ruleClock.now()` everywhere a rule reads the time, never
// `new Date()` scattered in rules. Tests move it with `moveRuleClock` (`@bo/service-kit/testing`);
// in production it is the system clock.
let offsetMs = 0;

export const ruleClock = {
  now(): Date {
    return new Date(Date.now() + offsetMs);
  },
};

/** Tests only: the clock runs `ms` ahead of the system clock from now on (0 puts it back). */
export function setRuleClockOffset(ms: number): void {
  offsetMs = ms;
}
