// Test support shared by every workspace's tests: scopes and NATS calls as the gateway makes them,
// stacks of real services on a fresh database and NATS prefix, players in a given state, the
// ledger checks, child processes for crash tests, and the games stack. The service under test is
// passed in by its own tests; the ones it needs beside it come from here (services.ts).
export { adminScope, internalScope, operatorScope } from './scopes.ts';
export { answerOf, caller, errorOf, ok, type CallOptions, type Caller } from './rpc.ts';
export { assertLedgerSound, moneyTest, startStack, type Stack } from './stack.ts';
export { BR_SPA_LIMITS, BR_SPA_REGISTRATION, createPlayer, setLimits, setStatus, type PlayerSetup } from './players.ts';
export { processGroup, spawnService, type ChildService, type ServiceName } from './processes.ts';
export { gamesServicesWith, playersService } from './services.ts';
export {
  LAUNCH_SECRET,
  deadPort,
  gatewayScope,
  paymentsScope,
  scopes,
  scriptedRng,
  startFakeProvider,
  startGamesStack,
  tokenOf,
  type GamesServices,
  type GamesStack,
  type Rng,
} from './games.ts';
export { startHub88Standin, type Hub88Standin } from './hub88.ts';
export { startEvolutionStandin, type EvolutionStandin } from './evolution.ts';
export { activatedPerson, chosenPassword, confirmPerson, firstConsoleSignIn, totpCode, type ActivatedPerson } from './console.ts';
export { outboxAudits } from './audit.ts';
export { setComplianceProfile } from './compliance.ts';
export { certifiedGame, PUT_CERTIFICATE_SUBJECT } from './game-register.ts';
// A test's NATS server and a prefix of its own, for tests that need no more of the kit (the launch page's).
export { testNatsUrl, testPrefix, timedPhase } from '@bo/service-kit/testing';
export { CHROMIUM_LAUNCH, CHROMIUM_PATH } from './chromium.ts';
