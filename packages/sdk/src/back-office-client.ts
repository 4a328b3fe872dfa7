// The operator's client: one typed method per public operation, grouped by resource. Every
// method goes through SignedTransport (signing, Idempotency-Key, retries) and resolves with the
// response body; `request()` gives the status, headers and replay flag as well.
import {
  OPERATIONS,
  type Communication,
  type CommunicationInput,
  type ConfirmDeposit,
  type CreateDeposit,
  type CreateGameSession,
  type CreateKycSubmission,
  type CreatePlayer,
  type CreateWithdrawal,
  type Deposit,
  type EndedGameSession,
  type FailDeposit,
  type Game,
  type GameSession,
  type KycDecision,
  type KycRecord,
  type KycSubmissionCreated,
  type LedgerItem,
  type LoginAllowed,
  type Me,
  type OperationId,
  type OperationTypes,
  type Pause,
  type Player,
  type PlayerHarmLevel,
  type SandboxHarmMarkers,
  type ResponsibleGaming,
  type SetLimit,
  type SandboxImpediment,
  type SandboxImpedimentCheck,
  type SandboxNextDay,
  type SandboxPixKey,
  type SandboxScreeningEntry,
  type SandboxScreeningEntryResult,
  type PublishTermsVersion,
  type TermsAcceptance,
  type TermsAcceptanceInput,
  type TermsVersion,
  type Wallet,
  type Redelivery,
  type WebhookAttempt,
  type WebhookEventSummary,
  type WebhookTestResult,
  type Withdrawal,
  type WithdrawalDecision,
} from './operations.generated.ts';
import { SignedTransport, type ApiResponse, type OperationInput, type RequestOptions, type TransportOptions } from './signed-transport.ts';
import { verifyWebhook, type HeaderSource, type VerifiedWebhook, type VerifyWebhookOptions } from './webhook-verification.ts';

export interface BackOfficeOptions extends TransportOptions {
  /** The webhook secret (`whsec_...`) for `webhooks.verify`; optional. */
  webhookSecret?: string | readonly string[];
}

/** Options of an operation without an Idempotency-Key. */
export type ReadOptions = Omit<RequestOptions, 'idempotencyKey'>;

type Part<Name extends string, T> = [T] extends [undefined]
  ? { [P in Name]?: undefined }
  : // Optional when an empty object is valid (e.g. the confirm body, the transactions query).
    // biome-ignore lint/complexity/noBannedTypes: `{}` is the empty object this tests against
    {} extends T
    ? { [P in Name]?: T }
    : { [P in Name]: T };

/** `params`, `query` and `body` of an operation, each required exactly when the contract requires it. */
export type OperationRequest<K extends OperationId> = Part<'params', OperationTypes[K]['params']> &
  Part<'query', OperationTypes[K]['query']> &
  Part<'body', OperationTypes[K]['body']>;

/** The request argument may be left out when nothing in it is required. */
type RequestArgs<K extends OperationId> =
  // biome-ignore lint/complexity/noBannedTypes: `{}` is the empty object this tests against
  {} extends OperationRequest<K> ? [input?: OperationRequest<K>, opts?: RequestOptions] : [input: OperationRequest<K>, opts?: RequestOptions];

export type TransactionsPage = OperationTypes['listTransactions']['response'];
export type PlayerRoundsPage = OperationTypes['listPlayerRounds']['response'];

export class BackOffice {
  readonly #transport: SignedTransport;
  readonly #webhookSecret: string | readonly string[] | undefined;

  constructor(opts: BackOfficeOptions) {
    this.#transport = new SignedTransport(opts);
    this.#webhookSecret = opts.webhookSecret;
  }

  /** Any operation by its operationId, with the full response. */
  request<K extends OperationId>(id: K, ...[input, opts]: RequestArgs<K>): Promise<ApiResponse<OperationTypes[K]['response']>> {
    return this.#transport.send(OPERATIONS[id], (input ?? {}) as OperationInput, opts);
  }

  async #body<K extends OperationId>(id: K, input: OperationRequest<K>, opts?: RequestOptions): Promise<OperationTypes[K]['response']> {
    return (await this.#transport.send<OperationTypes[K]['response']>(OPERATIONS[id], input as OperationInput, opts)).body;
  }

  readonly me = {
    /** GET /me: operator, brand and environment of this key; a cheap check of the signing set-up. */
    get: (opts?: ReadOptions): Promise<Me> => this.#body('getMe', {}, opts),
  };

  readonly players = {
    create: (body: CreatePlayer, opts?: RequestOptions): Promise<Player> => this.#body('createPlayer', { body }, opts),
    /** Players with this externalId (at most one per brand); `data` is empty when none. */
    find: (query: { externalId: string }, opts?: ReadOptions): Promise<{ data: Player[] }> => this.#body('findPlayers', { query }, opts),
    /** One player of this key's brand by id (404 PLAYER_NOT_FOUND otherwise). */
    get: (playerId: string, opts?: ReadOptions): Promise<Player> => this.#body('getPlayer', { params: { playerId } }, opts),
    /** Complete or correct the registration data (never the CPF nor the birth date); under br-spa, completing it lifts registration_incomplete. */
    update: (playerId: string, body: OperationTypes['updatePlayer']['body'], opts?: RequestOptions): Promise<Player> =>
      this.#body('updatePlayer', { params: { playerId }, body }, opts),
    /** Record the bettor's marketing consent given or withdrawn (409 MARKETING_BLOCKED while a self-exclusion, pause, impediment or closing lasts). */
    setMarketingConsent: (
      playerId: string,
      body: OperationTypes['setMarketingConsent']['body'],
      opts?: RequestOptions,
    ): Promise<OperationTypes['setMarketingConsent']['response']> => this.#body('setMarketingConsent', { params: { playerId }, body }, opts),
    /** Report a login: under the br-spa profile the first of the day checks the SPA impediment registry (403 PLAYER_IMPEDED). */
    reportLogin: (playerId: string, opts?: ReadOptions): Promise<LoginAllowed> => this.#body('reportLogin', { params: { playerId } }, opts),
    /** Record a message you sent the player (channel, kind, when, what): kept five years (IN SPA/MF 31/2025 after an impediment hit). */
    recordCommunication: (playerId: string, body: CommunicationInput, opts?: RequestOptions): Promise<Communication> =>
      this.#body('recordCommunication', { params: { playerId }, body }, opts),
    /** One page of the player's communications log, newest sent first; pass `nextCursor` back as `cursor`. */
    communications: (
      playerId: string,
      query: { limit?: number; cursor?: string } = {},
      opts?: ReadOptions,
    ): Promise<{ data: Communication[]; nextCursor: string | null }> => this.#body('listCommunications', { params: { playerId }, query }, opts),
  };

  /** A player's data requests under the LGPD (docs/privacy.md): access, portability, correction, deletion. */
  readonly dataRequests = {
    /** File the bettor's request; access and portability are answered with a file, within the law's 15 days. */
    file: (playerId: string, body: OperationTypes['fileDataRequest']['body'], opts?: RequestOptions): Promise<OperationTypes['fileDataRequest']['response']> =>
      this.#body('fileDataRequest', { params: { playerId }, body }, opts),
    /** The player's requests, newest first. */
    list: (playerId: string, opts?: ReadOptions): Promise<OperationTypes['listDataRequests']['response']> =>
      this.#body('listDataRequests', { params: { playerId } }, opts),
    get: (playerId: string, requestId: string, opts?: ReadOptions): Promise<OperationTypes['getDataRequest']['response']> =>
      this.#body('getDataRequest', { params: { playerId, requestId } }, opts),
    /** An answered access or portability request's file (409 DATA_REQUEST_NO_FILE otherwise). */
    download: (playerId: string, requestId: string, opts?: ReadOptions): Promise<unknown> =>
      this.#body('getDataRequestFile', { params: { playerId, requestId } }, opts),
  };

  /** Who must not be sent marketing (docs/players.md, "Marketing permission"). */
  readonly marketing = {
    /** The players of this brand who must not be contacted with marketing on `date`, with why; page with `after` = the previous `nextAfter`. */
    suppressions: (
      query: OperationTypes['listMarketingSuppressions']['query'],
      opts?: ReadOptions,
    ): Promise<OperationTypes['listMarketingSuppressions']['response']> => this.#body('listMarketingSuppressions', { query }, opts),
  };

  /** The brand's terms versions and the players' acceptances (docs/players.md, "Terms versions"). */
  readonly terms = {
    /** Publish a version (now, or at a later `publishedAt`); under br-spa players accept it before their next deposit or game session. */
    publish: (body: PublishTermsVersion, opts?: RequestOptions): Promise<TermsVersion> => this.#body('publishTermsVersion', { body }, opts),
    /** The brand's versions, newest publication first, each `scheduled`, `in_force` or `superseded`. */
    list: (opts?: ReadOptions): Promise<{ data: TermsVersion[] }> => this.#body('listTermsVersions', {}, opts),
    /** Record the player's acceptance of a published version (which, when, from which IP address). */
    accept: (playerId: string, body: TermsAcceptanceInput, opts?: RequestOptions): Promise<TermsAcceptance> =>
      this.#body('acceptTerms', { params: { playerId }, body }, opts),
    /** The player's acceptances, newest first. */
    acceptances: (playerId: string, opts?: ReadOptions): Promise<{ data: TermsAcceptance[] }> =>
      this.#body('listTermsAcceptances', { params: { playerId } }, opts),
  };

  /** Limits, pauses and self-exclusion the player chose (docs/responsible-gaming.md). */
  readonly responsibleGaming = {
    get: (playerId: string, opts?: ReadOptions): Promise<ResponsibleGaming> => this.#body('getResponsibleGaming', { params: { playerId } }, opts),
    setLimit: (
      playerId: string,
      type: 'deposit' | 'loss' | 'wager' | 'time',
      period: 'day' | 'week' | 'month',
      body: SetLimit,
      opts?: RequestOptions,
    ): Promise<ResponsibleGaming> => this.#body('setLimit', { params: { playerId, type, period }, body }, opts),
    removeLimit: (
      playerId: string,
      type: 'deposit' | 'loss' | 'wager' | 'time',
      period: 'day' | 'week' | 'month',
      opts?: RequestOptions,
    ): Promise<ResponsibleGaming> => this.#body('removeLimit', { params: { playerId, type, period } }, opts),
    pause: (playerId: string, body: Pause, opts?: RequestOptions): Promise<ResponsibleGaming> =>
      this.#body('pausePlayer', { params: { playerId }, body }, opts),
    selfExclude: (playerId: string, body: { months: number } | { indefinite: true }, opts?: RequestOptions): Promise<ResponsibleGaming> =>
      this.#body('selfExclude', { params: { playerId }, body }, opts),
    /** The player's level of risk of gambling harm with the markers behind it (docs/player-protection.md). */
    harmLevel: (playerId: string, opts?: ReadOptions): Promise<PlayerHarmLevel> => this.#body('getPlayerHarmLevel', { params: { playerId } }, opts),
  };

  readonly kyc = {
    get: (playerId: string, opts?: ReadOptions): Promise<KycRecord> => this.#body('getKyc', { params: { playerId } }, opts),
    submit: (playerId: string, body: CreateKycSubmission, opts?: RequestOptions): Promise<KycSubmissionCreated> =>
      this.#body('submitKyc', { params: { playerId }, body }, opts),
  };

  readonly wallet = {
    get: (playerId: string, opts?: ReadOptions): Promise<Wallet> => this.#body('getWallet', { params: { playerId } }, opts),
    /** One page of the ledger, newest first; pass `nextCursor` back as `cursor` for the next. */
    transactions: (playerId: string, query: { limit?: number; cursor?: string } = {}, opts?: ReadOptions): Promise<TransactionsPage> =>
      this.#body('listTransactions', { params: { playerId }, query }, opts),
    /** Every ledger item, newest first, page by page. */
    allTransactions: (playerId: string, query: { limit?: number } = {}, opts?: ReadOptions): AsyncGenerator<LedgerItem> =>
      this.#allTransactions(playerId, query.limit, opts),
  };

  async *#allTransactions(playerId: string, limit: number | undefined, opts?: ReadOptions): AsyncGenerator<LedgerItem> {
    let cursor: string | undefined;
    do {
      const page = await this.wallet.transactions(playerId, { limit, cursor }, opts);
      yield* page.data;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  readonly deposits = {
    create: (playerId: string, body: CreateDeposit, opts?: RequestOptions): Promise<Deposit> =>
      this.#body('createDeposit', { params: { playerId }, body }, opts),
    /** Credits the wallet; only while the deposit is pending. Under the br-spa profile pass the payer (`{ payer: { cpf } }`). */
    confirm: (depositId: string, body: ConfirmDeposit = {}, opts?: RequestOptions): Promise<Deposit> =>
      this.#body('confirmDeposit', { params: { depositId }, body }, opts),
    fail: (depositId: string, body: FailDeposit = {}, opts?: RequestOptions): Promise<Deposit> =>
      this.#body('failDeposit', { params: { depositId }, body }, opts),
  };

  readonly withdrawals = {
    create: (playerId: string, body: CreateWithdrawal, opts?: RequestOptions): Promise<Withdrawal> =>
      this.#body('createWithdrawal', { params: { playerId }, body }, opts),
    get: (withdrawalId: string, opts?: ReadOptions): Promise<Withdrawal> => this.#body('getWithdrawal', { params: { withdrawalId } }, opts),
    cancel: (withdrawalId: string, body: OperationTypes['cancelWithdrawal']['body'] = {}, opts?: RequestOptions): Promise<Withdrawal> =>
      this.#body('cancelWithdrawal', { params: { withdrawalId }, body }, opts),
  };

  readonly games = {
    list: (opts?: ReadOptions): Promise<{ data: Game[] }> => this.#body('listGames', {}, opts),
    /** Opens a session; send the player's browser to `gameUrl`. */
    createSession: (playerId: string, body: CreateGameSession, opts?: ReadOptions): Promise<GameSession> =>
      this.#body('createGameSession', { params: { playerId }, body }, opts),
    /** Ends a session now (the player logged out): its page stops, a provider's bets on it are refused, wins and rollbacks still settle. Idempotent. */
    endSession: (playerId: string, sessionId: string, opts?: RequestOptions): Promise<EndedGameSession> =>
      this.#body('endGameSession', { params: { playerId, sessionId }, body: {} }, opts),
    /** Ends every open session of the player now; answers the sessions it ended. Idempotent. */
    endSessions: (playerId: string, opts?: RequestOptions): Promise<{ data: EndedGameSession[] }> =>
      this.#body('endPlayerGameSessions', { params: { playerId }, body: {} }, opts),
    /** One page of the player's third-party provider rounds and sports bets, newest first; pass `nextCursor` back as `cursor`. */
    rounds: (playerId: string, query: { limit?: number; cursor?: string } = {}, opts?: ReadOptions): Promise<PlayerRoundsPage> =>
      this.#body('listPlayerRounds', { params: { playerId }, query }, opts),
  };

  readonly webhooks = {
    /** Makes one delivery of a `webhook.test` event to the configured URL now, and reports how it went. */
    test: (opts?: ReadOptions): Promise<WebhookTestResult> => this.#body('testWebhook', {}, opts),
    /** Recent events sent to your endpoint, newest first, with the state of their latest delivery. */
    events: (
      query: OperationRequest<'listWebhookEvents'>['query'] = {},
      opts?: ReadOptions,
    ): Promise<{ data: WebhookEventSummary[]; nextCursor: string | null }> => this.#body('listWebhookEvents', { query }, opts),
    /** Every delivery attempt of one event, oldest first. */
    attempts: (eventId: string, opts?: ReadOptions): Promise<{ data: WebhookAttempt[] }> =>
      this.#body('listWebhookEventAttempts', { params: { eventId } }, opts),
    /** Delivers an event again (same id and body); retried safely with one Idempotency-Key. */
    redeliver: (eventId: string, opts?: RequestOptions): Promise<Redelivery> => this.#body('redeliverWebhookEvent', { params: { eventId } }, opts),
    /** verifyWebhook with the client's `webhookSecret`. */
    verify: (rawBody: string | Uint8Array, headers: HeaderSource, opts: Omit<VerifyWebhookOptions, 'secret'> = {}): VerifiedWebhook => {
      if (this.#webhookSecret === undefined) throw new TypeError('webhooks.verify needs the webhookSecret option');
      return verifyWebhook(rawBody, headers, { ...opts, secret: this.#webhookSecret });
    },
  };

  /** Sandbox keys only (production answers 403 SANDBOX_ONLY): stand in for the team's decisions. */
  readonly sandbox = {
    decideKyc: (playerId: string, body: KycDecision, opts?: ReadOptions): Promise<KycRecord> =>
      this.#body('sandboxKycDecision', { params: { playerId }, body }, opts),
    decideWithdrawal: (withdrawalId: string, body: WithdrawalDecision, opts?: ReadOptions): Promise<Withdrawal> =>
      this.#body('sandboxWithdrawalDecision', { params: { withdrawalId }, body }, opts),
    /** Puts a CPF on the simulated SPA impediment registry of your operator. */
    addImpediment: (body: SandboxImpediment, opts?: ReadOptions): Promise<{ cpf: string; reason: SandboxImpediment['reason'] }> =>
      this.#body('sandboxAddImpediment', { body }, opts),
    /** Registers a PIX key and its owner's CPF in the simulated payment provider's directory. */
    addPixKey: (body: SandboxPixKey, opts?: ReadOptions): Promise<{ key: string; ownerCpf: string }> => this.#body('sandboxAddPixKey', { body }, opts),
    /** Removes a PIX key from the simulated payment provider's directory. */
    removePixKey: (key: string, opts?: ReadOptions): Promise<{ key: string; removed: boolean }> => this.#body('sandboxRemovePixKey', { params: { key } }, opts),
    /** Takes a CPF off the simulated SPA impediment registry of your operator. */
    removeImpediment: (cpf: string, opts?: ReadOptions): Promise<{ cpf: string; removed: boolean }> =>
      this.#body('sandboxRemoveImpediment', { params: { cpf } }, opts),
    /** Runs the player's impediment check now, as the next day's first login would (a hit restricts the player). */
    checkImpediments: (playerId: string, opts?: ReadOptions): Promise<SandboxImpedimentCheck> =>
      this.#body('sandboxCheckImpediments', { params: { playerId } }, opts),
    /** Moves the player's day forward: the day's impediment check, the window and closing after a hit, cooling-offs and game usage, a day older. */
    nextDay: (playerId: string, opts?: ReadOptions): Promise<SandboxNextDay> => this.#body('sandboxNextDay', { params: { playerId } }, opts),
    /** Makes the player show exactly these harm markers (none: a quiet player), assessed at once (docs/player-protection.md). */
    setHarmMarkers: (playerId: string, markers: SandboxHarmMarkers['markers'], opts?: ReadOptions): Promise<PlayerHarmLevel> =>
      this.#body('sandboxSetHarmMarkers', { params: { playerId }, body: { markers } }, opts),
    /** Puts a CPF on your sandbox's simulated PEP or sanctions list (your br-spa sandbox players with it are screened again). */
    addScreeningEntry: (body: SandboxScreeningEntry, opts?: ReadOptions): Promise<SandboxScreeningEntryResult> =>
      this.#body('sandboxAddScreeningEntry', { body }, opts),
    /** Takes one of your sandbox's entries off the simulated lists (a freeze stays). */
    removeScreeningEntry: (id: string, opts?: ReadOptions): Promise<{ id: string; removed: boolean }> =>
      this.#body('sandboxRemoveScreeningEntry', { params: { id } }, opts),
  };
}
