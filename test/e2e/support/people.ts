// Our team's people as issue #56 wants them before any power is theirs: activated (their own
// password, TOTP where the role requires it) with the personal token each made from their own
// console session. The one helper of the workspaces' tests (packages/test-support), taken by path:
// it needs nothing but node:crypto and fetch, and the e2e workspace declares no test-support.
export { activatedPerson, confirmPerson, totpCode, type ActivatedPerson } from '../../../packages/test-support/src/console.ts';
