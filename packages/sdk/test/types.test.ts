// The generated and hand-written types agree with the contracts' own (TypeBox Static) types.
// The checks are compile-time: `npm run typecheck` fails on a mismatch; the runtime assertions
// only make the file a test.
import t from 'tap';
import type {
  CreatePlayer as CCreatePlayer,
  Deposit as CDeposit,
  DomainEvent,
  ErrorCode as CErrorCode,
  Game as CGame,
  GameSession as CGameSession,
  KycRecord as CKycRecord,
  LedgerItem as CLedgerItem,
  Me as CMe,
  Player as CPlayer,
  Wallet as CWallet,
  WebhookTestResult as CWebhookTestResult,
  Withdrawal as CWithdrawal,
} from '@bo/contracts';
import type {
  CreatePlayer,
  Deposit,
  ErrorCode,
  Game,
  GameSession,
  KycRecord,
  LedgerItem,
  Me,
  Player,
  Wallet,
  WebhookEvent,
  WebhookTestResult,
  Withdrawal,
} from '../src/index.ts';
import type { BackOffice } from '../src/index.ts';

// Each type must be assignable both ways (a generic constraint is checked by the compiler).
const same = <A extends B, B extends C, C = A>(ok: true) => ok;
// The contracts' Static<> of DepositSchema/WithdrawalSchema types `status` as string (their
// `literals` helper in payments.ts is untyped) while the schema is a union of literals: the SDK
// follows the schema, so its types are narrower and assignable one way only.
// biome-ignore lint/correctness/noUnusedVariables: the type parameters are the check
const narrower = <Ours extends Theirs, Theirs>(ok: true) => ok;

const checks = {
  Player: same<Player, CPlayer>(true),
  CreatePlayer: same<CreatePlayer, CCreatePlayer>(true),
  KycRecord: same<KycRecord, CKycRecord>(true),
  Deposit: narrower<Deposit, CDeposit>(true),
  Withdrawal: narrower<Withdrawal, CWithdrawal>(true),
  Wallet: same<Wallet, CWallet>(true),
  LedgerItem: same<LedgerItem, CLedgerItem>(true),
  Game: same<Game, CGame>(true),
  GameSession: same<GameSession, CGameSession>(true),
  Me: same<Me, CMe>(true),
  WebhookTestResult: same<WebhookTestResult, CWebhookTestResult>(true),
  ErrorCode: same<ErrorCode, CErrorCode>(true),
  WebhookEvent: narrower<WebhookEvent, { [T in DomainEvent['type']]: DomainEvent<T> }[DomainEvent['type']]>(true),
};

t.test('generated types equal the contracts types', async (t) => {
  t.same(Object.values(checks).every(Boolean), true, `${Object.keys(checks).length} types checked by the compiler`);
});

// What the compiler refuses (never called: the checks are the @ts-expect-error lines, which fail
// the typecheck if the line compiles).
export function refusedByTheCompiler(sdk: BackOffice): void {
  // @ts-expect-error createPlayer needs a body
  void sdk.request('createPlayer', {});
  // @ts-expect-error getWallet needs params.playerId
  void sdk.request('getWallet');
  // @ts-expect-error findPlayers needs query.externalId
  void sdk.request('findPlayers', {});
  // @ts-expect-error getMe takes no body
  void sdk.request('getMe', { body: {} });
  // @ts-expect-error amounts are strings, never numbers
  void sdk.deposits.create('plr_1', { amount: 10, currency: 'BRL', method: 'pix', externalReference: 'r' });
  // @ts-expect-error not a KYC status
  void sdk.sandbox.decideKyc('plr_1', { status: 'approved' });
  // @ts-expect-error getMe has no Idempotency-Key
  void sdk.me.get({ idempotencyKey: 'k-12345678' });
  // Accepted: optional parts may be left out.
  void sdk.request('getMe');
  void sdk.request('confirmDeposit', { params: { depositId: 'dep_1' } });
  void sdk.request('listTransactions', { params: { playerId: 'plr_1' } });
}
