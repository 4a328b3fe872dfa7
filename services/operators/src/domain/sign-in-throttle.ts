// The sign-in back-off's rules: how many failures are free, how the block grows, when a count is
// forgotten, and the two keys an attempt counts against. The counts themselves are kept by
// store/sign-in-throttle.ts.
export interface ThrottlePolicy {
  /** Failures allowed before the back-off starts, per account and per address (an office shares one). */
  accountFreeFailures: number;
  addressFreeFailures: number;
  /** The first block, doubled by each further failure, up to maxSeconds. */
  baseSeconds: number;
  maxSeconds: number;
  /** A key with no failure for this long starts again from zero. */
  forgetAfterMinutes: number;
}
export const DEFAULT_THROTTLE_POLICY: ThrottlePolicy = {
  accountFreeFailures: 3,
  addressFreeFailures: 10,
  baseSeconds: 2,
  maxSeconds: 900,
  forgetAfterMinutes: 60,
};

export interface ThrottleKeys {
  account: string;
  address: string;
}
export const throttleKeys = (email: string, address: string): ThrottleKeys => ({
  account: `account:${email.trim().toLowerCase()}`,
  address: `address:${address}`,
});
