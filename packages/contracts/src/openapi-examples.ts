// Example requests and responses of every public operation, shown in the OpenAPI document, the
// /docs reference and the Postman collection. A test checks each against the operation's schema,
// so an example cannot drift from the contract.
import { PROFILE_RULES } from './me.ts';

const T0 = '2026-11-21T10:00:00.000Z';
const T1 = '2026-11-21T10:05:00.000Z';
const T0_PLUS_120_MIN = '2026-11-21T12:00:00.000Z';
const PLAYER_ID = 'plr_01934b7e8c8e7c3a9f2d1b0a11223344';
const DEPOSIT_ID = 'dep_01934b7e8c8e7c3a9f2d1b0a55667788';
const WITHDRAWAL_ID = 'wd_01934b7e8c8e7c3a9f2d1b0a99aabbcc';
const PROVIDER_ID = 'prv_01934b7e8c8e7c3a9f2d1b0a0a0b0c0d';
const SLIP = {
  sport: 'football',
  event: 'Flamengo x Palmeiras',
  market: 'match_result',
  selection: 'Flamengo',
  odds: '2.35',
  eventStartsAt: '2026-11-22T19:00:00.000Z',
};
const TERMS_VERSION_ID = 'trm_01934b7e8c8e7c3a9f2d1b0a00000008';

const player = {
  id: PLAYER_ID,
  externalId: 'user-42',
  name: 'Ana Souza',
  email: 'ana@example.com',
  cpf: '52998224725',
  phone: '+5511987654321',
  birthDate: '1990-05-17',
  status: 'ativo',
  kycStatus: 'nao_iniciado',
  currency: 'BRL',
  createdAt: T0,
  marketing: { consent: false, allowed: false, blockedBy: null, consentChangedAt: null },
};
const DATA_REQUEST_ID = 'dsr_01934b7e8c8e7c3a9f2d1b0a00000009';
const dataRequest = {
  id: DATA_REQUEST_ID,
  object: 'data_request',
  playerId: PLAYER_ID,
  type: 'access',
  status: 'answered',
  reference: 'ticket-4821',
  corrections: null,
  receivedAt: '2026-11-21T10:00:00.000Z',
  dueAt: '2026-12-06T10:00:00.000Z',
  answeredAt: '2026-11-21T10:00:01.000Z',
  answer: { file: { records: 412, sha256: '9f2c4e1a0b7d3c5e8f6a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e' } },
};
const ADDRESS = {
  street: 'Av. Paulista',
  number: '1000',
  complement: 'ap 12',
  district: 'Bela Vista',
  city: 'São Paulo',
  state: 'SP',
  postalCode: '01310-100',
};
const kycRecord = (status: string) => ({
  playerId: PLAYER_ID,
  status,
  submissions: [{ id: 'kyc_01934b7e8c8e7c3a9f2d1b0addeeff00', documentType: 'rg', reference: 's3://kyc-docs/user-42/rg-front.jpg', createdAt: T0 }],
  updatedAt: T1,
});
const deposit = (status: 'pending' | 'confirmed' | 'failed') => ({
  id: DEPOSIT_ID,
  playerId: PLAYER_ID,
  amount: '100.00',
  currency: 'BRL',
  method: 'pix',
  externalReference: 'psp-7f3a9c',
  status,
  createdAt: T0,
  updatedAt: status === 'pending' ? T0 : T1,
  confirmedAt: status === 'confirmed' ? T1 : null,
  failedAt: status === 'failed' ? T1 : null,
  failureReason: status === 'failed' ? 'Payment expired at the PSP' : null,
});
const withdrawal = (status: string) => ({
  id: WITHDRAWAL_ID,
  playerId: PLAYER_ID,
  amount: '30.00',
  currency: 'BRL',
  method: 'pix',
  destination: 'ana@example.com',
  status,
  createdAt: T0,
  updatedAt: status === 'under_review' ? T0 : T1,
  // A br-spa operator's withdrawal: due 120 minutes after its request (null under the profile off).
  payoutDueAt: T0_PLUS_120_MIN,
});

export interface OperationExample {
  /** Path parameters of the example (also what the Postman flow fills in). */
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: Record<string, unknown>;
  response: unknown;
}

const responsibleGaming = {
  playerId: PLAYER_ID,
  limits: [
    {
      type: 'loss',
      period: 'day',
      value: '200.00',
      used: '35.50',
      resetsAt: '2026-11-22T03:00:00.000Z',
      pending: { value: '300.00', effectiveAt: '2026-11-22T10:00:00.000Z' },
    },
    { type: 'time', period: 'day', value: 120, used: 42, resetsAt: '2026-11-22T03:00:00.000Z', pending: null },
  ],
  pause: null,
  selfExclusion: null,
  realityCheckMinutes: 60,
  centralSelfExclusionUrl: 'https://www.gov.br/autoexclusaoapostas',
};
const communication = {
  id: 'com_01934b7e8c8e7c3a9f2d1b0a0000000c',
  playerId: PLAYER_ID,
  channel: 'email',
  kind: 'impediment_notice',
  sentAt: T0,
  summary: 'Your account is blocked by the central self-exclusion: withdraw your balance by 2026-11-23; the account closes on 2026-11-24.',
  reference: 'msg-8812',
  recordedAt: T1,
  retainUntil: '2031-11-21T10:05:00.000Z',
};

/** A player's harm markers as the compliance service writes them (issue #68). */
const HARM_MARKERS_FIRED = [
  {
    marker: 'deposit_escalation',
    weight: 2,
    value: '4200.00',
    threshold: '1350.00',
    baseline: '450.00',
    from: '2026-11-15',
    to: '2026-11-21',
    summary: "deposits of 4200.00 in the last 7 days: 3× or more the player's usual 450.00 (floor 200.00), and more than their largest 7 days before (900.00)",
  },
  {
    marker: 'cancelled_withdrawals',
    weight: 2,
    value: '3',
    threshold: '2',
    from: '2026-10-23',
    to: '2026-11-21',
    summary: '3 withdrawals cancelled by the player in the last 30 days (threshold 2)',
  },
  {
    marker: 'night_play',
    weight: 1,
    value: '64',
    threshold: '50',
    from: '2026-11-15',
    to: '2026-11-21',
    summary: "64% of the last 7 days' play between 00:00 and 06:00 (312 minutes)",
  },
];

export const OPERATION_EXAMPLES: Record<string, OperationExample> = {
  getResponsibleGaming: { params: { playerId: PLAYER_ID }, response: responsibleGaming },
  setLimit: { params: { playerId: PLAYER_ID, type: 'loss', period: 'day' }, body: { value: '300.00' }, response: responsibleGaming },
  removeLimit: {
    params: { playerId: PLAYER_ID, type: 'loss', period: 'week' },
    response: {
      ...responsibleGaming,
      limits: [
        ...responsibleGaming.limits,
        {
          type: 'loss',
          period: 'week',
          value: '800.00',
          used: '35.50',
          resetsAt: '2026-11-24T03:00:00.000Z',
          pending: { value: null, effectiveAt: '2026-11-22T10:00:00.000Z' },
        },
      ],
    },
  },
  pausePlayer: {
    params: { playerId: PLAYER_ID },
    body: { until: '2026-11-28T10:00:00.000Z' },
    response: { ...responsibleGaming, pause: { until: '2026-11-28T10:00:00.000Z' } },
  },
  selfExclude: {
    params: { playerId: PLAYER_ID },
    body: { months: 3 },
    response: { ...responsibleGaming, selfExclusion: { since: T1, until: '2027-02-21T10:00:00.000Z' }, selfExclusionChange: 'started' },
  },
  getMe: {
    response: {
      operator: { id: 'op_01934b7e8c8e7c3a9f2d1b0a00000001', name: 'Acme Bets', environment: 'sandbox' },
      brand: { id: 'br_01934b7e8c8e7c3a9f2d1b0a00000002', name: 'Acme Bets (sandbox)', currency: 'BRL', isSandbox: true },
      apiVersion: '1.4.0',
      compliance: {
        profile: 'br-spa',
        timeZone: 'America/Sao_Paulo',
        coolingOffHours: 24,
        realityCheckMinutes: 60,
        rules: PROFILE_RULES['br-spa'].map((r) => ({ ...r })),
      },
    },
  },
  createPlayer: {
    body: {
      externalId: 'user-42',
      name: 'Ana Souza',
      email: 'ana@example.com',
      cpf: '529.982.247-25',
      phone: '+5511987654321',
      birthDate: '1990-05-17',
      limits: [
        { type: 'loss', period: 'day', value: '200.00' },
        { type: 'time', period: 'day', value: 120 },
      ],
      gender: 'feminino',
      signupIp: '203.0.113.7',
      address: ADDRESS,
      marketingConsent: true,
    },
    response: {
      ...player,
      gender: 'feminino',
      signupIp: '203.0.113.7',
      address: { ...ADDRESS, postalCode: '01310100' },
      registration: { complete: true, missing: [] },
      marketing: { consent: true, allowed: true, blockedBy: null, consentChangedAt: T0 },
    },
  },
  updatePlayer: {
    params: { playerId: PLAYER_ID },
    body: { gender: 'feminino', signupIp: '203.0.113.7', address: ADDRESS },
    response: {
      ...player,
      gender: 'feminino',
      signupIp: '203.0.113.7',
      address: { ...ADDRESS, postalCode: '01310100' },
      registration: { complete: true, missing: [] },
    },
  },
  setMarketingConsent: {
    params: { playerId: PLAYER_ID },
    body: { consent: false },
    response: { consent: false, allowed: false, blockedBy: null, consentChangedAt: T1 },
  },
  listMarketingSuppressions: {
    query: { date: '2026-11-21' },
    response: {
      brandId: 'br_01934b7e8c8e7c3a9f2d1b0a00000002',
      date: '2026-11-21',
      timeZone: 'America/Sao_Paulo',
      from: '2026-11-21T03:00:00.000Z',
      to: '2026-11-22T03:00:00.000Z',
      data: [{ playerId: PLAYER_ID, externalId: 'user-42', reasons: ['consent_withdrawn', 'self_exclusion'], since: T0 }],
      nextAfter: null,
    },
  },
  publishTermsVersion: {
    body: { version: '2026-11', url: 'https://acme.example/terms/2026-11' },
    response: { id: TERMS_VERSION_ID, version: '2026-11', publishedAt: T0, url: 'https://acme.example/terms/2026-11', status: 'in_force', createdAt: T0 },
  },
  listTermsVersions: {
    response: {
      data: [
        { id: TERMS_VERSION_ID, version: '2026-11', publishedAt: T0, url: 'https://acme.example/terms/2026-11', status: 'in_force', createdAt: T0 },
        {
          id: 'trm_01934b7e8c8e7c3a9f2d1b0a00000009',
          version: '2026-06',
          publishedAt: '2026-06-01T03:00:00.000Z',
          url: 'https://acme.example/terms/2026-06',
          status: 'superseded',
          createdAt: '2026-05-30T12:00:00.000Z',
        },
      ],
    },
  },
  acceptTerms: {
    params: { playerId: PLAYER_ID },
    body: { version: '2026-11', acceptedAt: T1, ip: '203.0.113.7' },
    response: { id: 'tac_01934b7e8c8e7c3a9f2d1b0a0000000a', playerId: PLAYER_ID, version: '2026-11', acceptedAt: T1, ip: '203.0.113.7', createdAt: T1 },
  },
  listTermsAcceptances: {
    params: { playerId: PLAYER_ID },
    response: {
      data: [{ id: 'tac_01934b7e8c8e7c3a9f2d1b0a0000000a', playerId: PLAYER_ID, version: '2026-11', acceptedAt: T1, ip: '203.0.113.7', createdAt: T1 }],
    },
  },
  recordCommunication: {
    params: { playerId: PLAYER_ID },
    body: { channel: 'email', kind: 'impediment_notice', sentAt: T0, summary: communication.summary, reference: 'msg-8812' },
    response: communication,
  },
  listCommunications: { params: { playerId: PLAYER_ID }, query: { limit: 50 }, response: { data: [communication], nextCursor: null } },
  fileDataRequest: { params: { playerId: PLAYER_ID }, body: { type: 'access', reference: 'ticket-4821' }, response: dataRequest },
  listDataRequests: { params: { playerId: PLAYER_ID }, response: { data: [dataRequest] } },
  getPlayerHarmLevel: {
    params: { playerId: PLAYER_ID },
    response: { playerId: PLAYER_ID, level: 'high', score: 5, markers: HARM_MARKERS_FIRED, assessedOn: '2026-11-21', updatedAt: T1 },
  },
  getDataRequest: { params: { playerId: PLAYER_ID, requestId: DATA_REQUEST_ID }, response: dataRequest },
  getDataRequestFile: {
    params: { playerId: PLAYER_ID, requestId: DATA_REQUEST_ID },
    response: {
      format: 'bo.personal-data/1',
      requestId: DATA_REQUEST_ID,
      playerId: PLAYER_ID,
      controller: { operatorId: 'op_01934b7e8c8e7c3a9f2d1b0a00000001', brandId: 'br_01934b7e8c8e7c3a9f2d1b0a00000002' },
      generatedAt: T1,
      categories: [
        {
          category: 'contact',
          title: 'Contact and address',
          purpose: 'Reach the bettor about the account, its limits and its money; the address of the registration',
          legalBasis: {
            basis: 'performance of a contract and legal obligation (art. 7, II and V)',
            law: 'Lei 9.613/1998, art. 10, I',
            url: 'https://www.planalto.gov.br/ccivil_03/leis/l9613.htm',
          },
          retention: 'while the account is open and 5 years after it is closed (Lei 9.613/1998, art. 10, I, II and §2)',
          keptUntil: null,
          tables: [
            {
              table: 'players.registration_changes',
              fieldsOfOtherCategories: {},
              rows: [{ field: 'email', old_value: 'ana@example.com', new_value: 'ana.souza@example.com', at: T1 }],
            },
          ],
        },
      ],
      notShown: [
        { category: 'aml', title: 'Anti-money-laundering', law: 'Lei 9.613/1998, art. 11, II', url: 'https://www.planalto.gov.br/ccivil_03/leis/l9613.htm' },
      ],
    },
  },
  findPlayers: { query: { externalId: 'user-42' }, response: { data: [player] } },
  getPlayer: { params: { playerId: PLAYER_ID }, response: player },
  reportLogin: { params: { playerId: PLAYER_ID }, response: { allowed: true } },
  sandboxAddImpediment: {
    body: { cpf: '529.982.247-25', reason: 'central_self_exclusion' },
    response: { cpf: '52998224725', reason: 'central_self_exclusion' },
  },
  sandboxRemoveImpediment: { params: { cpf: '52998224725' }, response: { cpf: '52998224725', removed: true } },
  sandboxCheckImpediments: { params: { playerId: PLAYER_ID }, response: { playerId: PLAYER_ID, outcome: 'impeded', status: 'restrito' } },
  sandboxNextDay: {
    params: { playerId: PLAYER_ID },
    response: { playerId: PLAYER_ID, status: 'restrito', impedimentCheckedAt: T0, restrictedAt: T0 },
  },
  sandboxSetHarmMarkers: {
    params: { playerId: PLAYER_ID },
    body: { markers: ['deposit_escalation', 'cancelled_withdrawals', 'night_play'] },
    response: { playerId: PLAYER_ID, level: 'high', score: 5, markers: HARM_MARKERS_FIRED, assessedOn: '2026-11-21', updatedAt: T1 },
  },
  sandboxAddScreeningEntry: {
    body: { list: 'sanctions', cpf: '529.982.247-25' },
    response: { id: 'scr_5f0c6d8a1b2e4c7d9e0f1a2b3c4d5e6f', list: 'sanctions', cpf: '52998224725', createdAt: T0 },
  },
  sandboxRemoveScreeningEntry: {
    params: { id: 'scr_5f0c6d8a1b2e4c7d9e0f1a2b3c4d5e6f' },
    response: { id: 'scr_5f0c6d8a1b2e4c7d9e0f1a2b3c4d5e6f', removed: true },
  },
  getKyc: { params: { playerId: PLAYER_ID }, response: kycRecord('em_analise') },
  submitKyc: {
    params: { playerId: PLAYER_ID },
    body: { documentType: 'rg', reference: 's3://kyc-docs/user-42/rg-front.jpg' },
    response: {
      id: 'kyc_01934b7e8c8e7c3a9f2d1b0addeeff00',
      playerId: PLAYER_ID,
      documentType: 'rg',
      reference: 's3://kyc-docs/user-42/rg-front.jpg',
      createdAt: T0,
      kycStatus: 'em_analise',
    },
  },
  sandboxKycDecision: { params: { playerId: PLAYER_ID }, body: { status: 'aprovado' }, response: kycRecord('aprovado') },
  getWallet: { params: { playerId: PLAYER_ID }, response: { playerId: PLAYER_ID, currency: 'BRL', available: '100.00', withdrawable: '70.00' } },
  listTransactions: {
    params: { playerId: PLAYER_ID },
    query: { limit: 50 },
    response: {
      data: [
        {
          id: 'le_01934b7e8c8e7c3a9f2d1b0a12121212',
          type: 'DEPOSIT',
          amount: '100.00',
          balanceAfter: '100.00',
          currency: 'BRL',
          referenceId: DEPOSIT_ID,
          createdAt: T1,
        },
      ],
      nextCursor: null,
    },
  },
  listPlayerRounds: {
    params: { playerId: PLAYER_ID },
    query: { limit: 50 },
    response: {
      data: [
        {
          providerId: PROVIDER_ID,
          providerName: 'Example Sportsbook',
          gameId: 'gm_p_01934b7e8c8e7c3a9f2d1b0a0e0f',
          gameCode: 'sportsbook',
          roundId: 'sb-778812',
          kind: 'sports',
          status: 'settled',
          currency: 'BRL',
          staked: '20.00',
          won: '47.00',
          corrected: '0.00',
          slip: SLIP,
          outcome: 'won',
          openedAt: T0,
          closedAt: T1,
          update: { status: 'won', slip: SLIP, version: 3, updates: 3, receivedAt: T1 },
        },
      ],
      nextCursor: null,
    },
  },
  createDeposit: {
    params: { playerId: PLAYER_ID },
    body: { amount: '100.00', currency: 'BRL', method: 'pix', externalReference: 'psp-7f3a9c' },
    response: deposit('pending'),
  },
  confirmDeposit: {
    params: { depositId: DEPOSIT_ID },
    body: { payer: { cpf: '529.982.247-25', name: 'Ana Souza', bank: '341', account: '0001/12345-6' } },
    response: deposit('confirmed'),
  },
  failDeposit: { params: { depositId: DEPOSIT_ID }, body: { reason: 'Payment expired at the PSP' }, response: deposit('failed') },
  createWithdrawal: {
    params: { playerId: PLAYER_ID },
    body: { amount: '30.00', currency: 'BRL', method: 'pix', destination: 'ana@example.com' },
    response: withdrawal('under_review'),
  },
  getWithdrawal: { params: { withdrawalId: WITHDRAWAL_ID }, response: withdrawal('under_review') },
  cancelWithdrawal: { params: { withdrawalId: WITHDRAWAL_ID }, body: {}, response: withdrawal('cancelled') },
  sandboxWithdrawalDecision: { params: { withdrawalId: WITHDRAWAL_ID }, body: { decision: 'approve' }, response: withdrawal('approved') },
  sandboxAddPixKey: { body: { key: 'ana@example.com', ownerCpf: '529.982.247-25' }, response: { key: 'ana@example.com', ownerCpf: '52998224725' } },
  sandboxRemovePixKey: { params: { key: 'ana@example.com' }, response: { key: 'ana@example.com', removed: true } },
  listGames: {
    response: { data: [{ id: 'gm_aviator_demo', name: 'Aviator (demo)', provider: 'builtin', category: 'crash' }] },
  },
  createGameSession: {
    params: { playerId: PLAYER_ID },
    body: { gameId: 'gm_aviator_demo' },
    response: {
      id: 'gs_01934b7e8c8e7c3a9f2d1b0a34343434',
      playerId: PLAYER_ID,
      gameId: 'gm_aviator_demo',
      gameUrl: 'https://api.example.com/play/eyJzIjoiZ3NfMDEifQ.c2lnbmF0dXJl',
      mode: 'demo',
      expiresAt: '2026-11-21T11:00:00.000Z',
      createdAt: T0,
    },
  },
  endGameSession: {
    params: { playerId: PLAYER_ID, sessionId: 'gs_01934b7e8c8e7c3a9f2d1b0a34343434' },
    body: {},
    response: { id: 'gs_01934b7e8c8e7c3a9f2d1b0a34343434', playerId: PLAYER_ID, gameId: 'gm_aviator_demo', mode: 'demo', createdAt: T0, endedAt: T1 },
  },
  endPlayerGameSessions: {
    params: { playerId: PLAYER_ID },
    body: {},
    response: {
      data: [{ id: 'gs_01934b7e8c8e7c3a9f2d1b0a34343434', playerId: PLAYER_ID, gameId: 'gm_aviator_demo', mode: 'demo', createdAt: T0, endedAt: T1 }],
    },
  },
  testWebhook: {
    response: {
      eventId: 'evt_01934b7e8c8e7c3a9f2d1b0a99887766',
      url: 'https://operator.example.com/webhooks',
      delivered: true,
      statusCode: 204,
      error: null,
      durationMs: 42,
    },
  },
  listWebhookEvents: {
    query: { limit: 20 },
    response: {
      data: [
        {
          id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000012',
          type: 'deposit.confirmed',
          environment: 'sandbox',
          createdAt: T1,
          deliveryStatus: 'delivered',
          attempts: 1,
          lastStatusCode: 204,
          lastError: null,
          nextAttemptAt: null,
          deliveredAt: '2026-11-21T10:05:00.250Z',
        },
        {
          id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000011',
          type: 'kyc.status_changed',
          environment: 'sandbox',
          createdAt: T0,
          deliveryStatus: 'pending',
          attempts: 2,
          lastStatusCode: 500,
          lastError: 'HTTP 500',
          nextAttemptAt: '2026-11-21T10:35:00.000Z',
          deliveredAt: null,
        },
      ],
      nextCursor: 'eyJ0IjoiMjAyNi0xMS0yMVQxMDowMDowMC4wMDAwMDAiLCJpZCI6ImV2dF8wMSJ9',
    },
  },
  listWebhookEventAttempts: {
    params: { eventId: 'evt_01934b7e8c8e7c3a9f2d1b0a00000011' },
    response: {
      data: [
        {
          deliveryId: 'dlv_01934b7e8c8e7c3a9f2d1b0a00000001',
          attempt: 1,
          url: 'https://operator.example.com/webhooks',
          outcome: 'failed',
          statusCode: 500,
          error: 'HTTP 500',
          startedAt: T0,
          durationMs: 87,
        },
      ],
    },
  },
  redeliverWebhookEvent: {
    params: { eventId: 'evt_01934b7e8c8e7c3a9f2d1b0a00000011' },
    response: { eventId: 'evt_01934b7e8c8e7c3a9f2d1b0a00000011', deliveryId: 'dlv_01934b7e8c8e7c3a9f2d1b0a00000002', deliveryStatus: 'pending' },
  },
};

/** Example body of each webhook event type (the `data` differs per type). */
export const WEBHOOK_EXAMPLES: Record<string, unknown> = {
  'kyc.status_changed': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000011',
    type: 'kyc.status_changed',
    createdAt: T1,
    environment: 'sandbox',
    data: { playerId: PLAYER_ID, externalId: 'user-42', previousStatus: 'em_analise', status: 'aprovado' },
  },
  'deposit.confirmed': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000012',
    type: 'deposit.confirmed',
    createdAt: T1,
    environment: 'sandbox',
    data: deposit('confirmed'),
  },
  'withdrawal.status_changed': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000013',
    type: 'withdrawal.status_changed',
    createdAt: T1,
    environment: 'sandbox',
    data: { withdrawal: withdrawal('approved'), previousStatus: 'under_review' },
  },
  'webhook.test': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a99887766',
    type: 'webhook.test',
    createdAt: T0,
    environment: 'sandbox',
    data: { message: 'This is a test delivery from the back-office API.' },
  },
  'credential.rotated': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000014',
    type: 'credential.rotated',
    createdAt: T1,
    environment: 'production',
    data: {
      credentialId: 'cred_01934b7e8c8e7c3a9f2d1b0a00000002',
      keyPrefix: 'bk_live_Q7mZ',
      createdAt: T1,
      expiring: [{ credentialId: 'cred_01934b7e8c8e7c3a9f2d1b0a00000001', keyPrefix: 'bk_live_3fKp', expiresAt: '2026-11-22T10:00:00.000Z' }],
    },
  },
  'player.limits.changed': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000016',
    type: 'player.limits.changed',
    createdAt: T1,
    environment: 'production',
    data: {
      playerId: PLAYER_ID,
      externalId: 'user-42',
      type: 'loss',
      period: 'day',
      previousValue: '200.00',
      value: '300.00',
      effectiveAt: '2026-11-22T10:00:00.000Z',
      by: 'operator',
    },
  },
  'player.limit.reached': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000017',
    type: 'player.limit.reached',
    createdAt: T1,
    environment: 'production',
    data: { playerId: PLAYER_ID, externalId: 'user-42', type: 'deposit', period: 'day', value: '500.00', resetsAt: '2026-11-22T03:00:00.000Z' },
  },
  'player.paused': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000018',
    type: 'player.paused',
    createdAt: T1,
    environment: 'production',
    data: { playerId: PLAYER_ID, externalId: 'user-42', until: '2026-11-28T10:00:00.000Z' },
  },
  'player.self_excluded': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000019',
    type: 'player.self_excluded',
    createdAt: T1,
    environment: 'production',
    data: { playerId: PLAYER_ID, externalId: 'user-42', since: T1, until: null },
  },
  'player.self_exclusion.ended': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a0000001a',
    type: 'player.self_exclusion.ended',
    createdAt: T1,
    environment: 'production',
    data: { playerId: PLAYER_ID, externalId: 'user-42', by: 'system', status: 'ativo' },
  },
  'credential.revoked': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000015',
    type: 'credential.revoked',
    createdAt: T1,
    environment: 'production',
    data: { credentialId: 'cred_01934b7e8c8e7c3a9f2d1b0a00000001', keyPrefix: 'bk_live_3fKp', revokedAt: T1 },
  },
  'deposit.failed': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000016',
    type: 'deposit.failed',
    createdAt: T1,
    environment: 'production',
    data: { deposit: { ...deposit('failed'), failureReason: 'payer_mismatch', payer: { cpf: '***.982.247-**' } }, refundRequired: true },
  },
  'player.restricted': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000017',
    type: 'player.restricted',
    createdAt: T1,
    environment: 'production',
    data: { playerId: PLAYER_ID, externalId: 'user-42', reason: 'impeded', withdrawalsUntil: '2026-11-23T10:05:00.000Z' },
  },
  'player.closed': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000018',
    type: 'player.closed',
    createdAt: '2026-11-24T10:05:00.000Z',
    environment: 'production',
    data: { playerId: PLAYER_ID, externalId: 'user-42', reason: 'impeded' },
  },
  'player.status.changed': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000019',
    type: 'player.status.changed',
    createdAt: T1,
    environment: 'production',
    data: { playerId: PLAYER_ID, externalId: 'user-42', previousStatus: 'ativo', status: 'suspenso' },
  },
  'sports_bet.placed': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000020',
    type: 'sports_bet.placed',
    createdAt: T0,
    environment: 'production',
    data: {
      playerId: PLAYER_ID,
      providerId: PROVIDER_ID,
      betId: 'sb-778812',
      transactionId: 'sb-tx-99120',
      gameCode: 'sportsbook',
      currency: 'BRL',
      stake: '20.00',
      slip: SLIP,
      placedAt: T0,
    },
  },
  'player.registration_incomplete': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000022',
    type: 'player.registration_incomplete',
    createdAt: T0,
    environment: 'production',
    data: { playerId: PLAYER_ID, externalId: 'user-42', missing: ['gender', 'signupIp', 'address'] },
  },
  'player.registration_completed': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000023',
    type: 'player.registration_completed',
    createdAt: T1,
    environment: 'production',
    data: { playerId: PLAYER_ID, externalId: 'user-42' },
  },
  'player.marketing_changed': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000024',
    type: 'player.marketing_changed',
    createdAt: T1,
    environment: 'production',
    data: { playerId: PLAYER_ID, externalId: 'user-42', consent: false, allowed: false, blockedBy: 'self_exclusion', reason: 'self_exclusion', at: T1 },
  },
  'player.risk_level_changed': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000025',
    type: 'player.risk_level_changed',
    createdAt: T1,
    environment: 'production',
    data: {
      playerId: PLAYER_ID,
      previousLevel: 'medium',
      level: 'high',
      score: 5,
      markers: HARM_MARKERS_FIRED,
      added: ['night_play'],
      removed: [],
      assessedOn: '2026-11-21',
    },
  },
  'player.self_exclusion_recommended': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000026',
    type: 'player.self_exclusion_recommended',
    createdAt: T1,
    environment: 'production',
    data: {
      playerId: PLAYER_ID,
      level: 'high',
      score: 5,
      markers: HARM_MARKERS_FIRED,
      assessedOn: '2026-11-21',
      recommendedAt: T1,
    },
  },
  'sports_bet.settled': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000021',
    type: 'sports_bet.settled',
    createdAt: T1,
    environment: 'production',
    data: {
      playerId: PLAYER_ID,
      providerId: PROVIDER_ID,
      betId: 'sb-778812',
      gameCode: 'sportsbook',
      currency: 'BRL',
      status: 'settled',
      outcome: 'won',
      staked: '20.00',
      won: '47.00',
      slip: SLIP,
      settledAt: T1,
    },
  },
};

/** What each operation does, for the OpenAPI `description` (Markdown). */
export const OPERATION_DESCRIPTIONS: Record<string, string> = {
  getMe:
    "Returns the operator, brand and environment of the calling credential, the API version, and the operator's compliance profile (`compliance`): `off` or `br-spa` (Brazil's SPA/MF rules, set by our team), the settings its responsible-gaming rules read (time zone of the limit periods, cooling-off, reality checks) and `rules`, what the profile adds to your calls, one stable `id` and a summary each (none under `off`). Use it to check your signing: a correct signature answers 200.",
  createPlayer:
    "Registers a player in the brand of the key. `externalId` is your own identifier and is unique per brand (409 `PLAYER_ALREADY_EXISTS`). The CPF is accepted with or without punctuation and returned as digits; the player must be over 18. A new player is `ativo` with KYC `nao_iniciado`. Under the `br-spa` compliance profile a registration must carry `phone`, `gender`, `signupIp` (the bettor's IP address), `address` (CEP returned as 8 digits) and in `limits` a `loss` and a `time` limit (422 `VALIDATION_ERROR`, `details.missing` naming each absent field by its name and each absent limit by its type). `gender`, `signupIp` and `address` are kept and returned under any profile; `marketingConsent: true` records the bettor's consent to marketing (`marketing`); `termsAccepted` records the bettor's acceptance of one of your published terms versions (422 when the brand has published no such version).",
  publishTermsVersion:
    'Publishes a version of your terms for this brand: in force from `publishedAt` (omitted: now; a later time schedules it; more than 5 minutes in the past is 422). The newest version published at or before a moment is the one in force then. A name is published once per brand (409 `TERMS_VERSION_EXISTS`). Under `br-spa`, from `publishedAt` every player who has not accepted it is refused deposits and game sessions with 403 `TERMS_NOT_ACCEPTED` (`details.version`) until you report their acceptance.',
  listTermsVersions: "The brand's terms versions, newest publication first, each `scheduled`, `in_force` or `superseded`.",
  acceptTerms:
    "Records the player's acceptance of a published version of your terms: which `version`, when (`acceptedAt`, omitted: now; never in the future nor before the version's publication) and from which IP address (`ip`). Acceptances are kept as reported and never changed. Under `br-spa`, accepting the version in force lifts 403 `TERMS_NOT_ACCEPTED` before this answers.",
  listTermsAcceptances: "The player's acceptances of your terms, newest first.",
  recordCommunication:
    'Records a message you sent the player: its `channel`, its `kind` (after an impediment hit, Instrução Normativa SPA/MF 31/2025 asks you to tell the bettor why the account is blocked and until when they may withdraw, and to keep every such communication), when you sent it (`sentAt`, never in the future) and what it said (`summary`). Records are kept five years (`retainUntil`) and never changed; any player of your brand, under any compliance profile.',
  listCommunications: 'The messages recorded for the player, newest `sentAt` first, page by page.',
  fileDataRequest:
    "Files your player's request under Brazil's data protection law (LGPD art. 18): `access` and `portability` are answered with a JSON file of every personal datum we hold about the player, by category, with its purpose, legal basis and retention (AML data never: Lei 9.613/1998 art. 11, II); `correction` changes the registration fields in `corrections` the way PATCH `/players/{playerId}` does (never the CPF nor the birth date); `deletion` anonymises what no legal duty keeps (the marketing consent, connection records older than six months) and refuses the rest, `partly_refused`, naming each duty and `keptUntil`. Answered at once when every service answers; else `received`, answered within the law's 15 days (`dueAt`). docs/privacy.md.",
  listDataRequests: "The player's data requests, newest first.",
  getPlayerHarmLevel:
    "The player's level of risk of gambling harm (`none`, `low`, `medium`, `high`), assessed from their deposits, declined deposits, cancelled withdrawals, limits raised or removed and refusals by a limit within a minute of each (where the deployment's harm feed is on; where it is off, every player reads `none`), against the player's own baseline (docs/player-protection.md gives each marker, its default threshold and its source). Never a bare score: each marker fired comes with its value, its threshold, the player's baseline where it compares with one, and the days it read. `player.risk_level_changed` tells you when the level moves. A level is a signal for your player-protection team and front-end (a message, a reality check, a contact), never a decision about the player. 404 `PLAYER_NOT_FOUND` for an unknown id or another brand's player.",
  getDataRequest: "One data request with its status and answer. 404 `DATA_REQUEST_NOT_FOUND` for an unknown id or another player's request.",
  getDataRequestFile:
    'The file of an answered `access` or `portability` request: JSON of the format `bo.personal-data/1`, its SHA-256 the one `answer.file.sha256` names. 409 `DATA_REQUEST_NO_FILE` before the answer or for another type.',
  findPlayers: 'Finds the player with your `externalId`. The list is empty when none exists.',
  updatePlayer:
    "Completes or corrects the player's registration data: any of `name`, `email`, `phone`, `gender`, `signupIp` (for a player registered without it) and `address`, at least one. The CPF and the birth date never change (422 `VALIDATION_ERROR` at `/cpf`, `/birthDate`). Each field that changes is kept with its value before and after, who and when (our team reads them). Under `br-spa`, a player missing registration data (Portaria SPA/MF 1.231/2024 art. 31 as amended by 2.579/2025) is refused deposits and bets with 403 `RG_BLOCKED` (`details.reason` `registration_incomplete`, `details.missing`) until it is complete (art. 34 sole paragraph): completing it lifts the refusal before this answers and sends `player.registration_completed`; `registration` says what is still missing.",
  setMarketingConsent:
    'Records the bettor\'s marketing consent: `{ "consent": true }` when they give it, `false` when they withdraw it. A self-exclusion, a pause, an impediment restriction or the closing of the account forces it off (`player.marketing_changed`), and while one lasts it cannot be given again: 409 `MARKETING_BLOCKED` (`details.blockedBy`). Each change is kept with who and when. Send marketing only to players whose `marketing.allowed` is true.',
  listMarketingSuppressions:
    "The players of your brand who must not be contacted with marketing on `date` (your compliance profile's time zone): anyone self-excluded, paused, impeded or closed at any time that day, or whose consent was withdrawn, each with every `reason` that applied and since when. Page with `limit` and `after` (the previous page's `nextAfter`). Portaria SPA/MF 1.231/2024 and IN SPA/MF 31/2025 forbid marketing that urges excluded bettors back: subtract this list from every campaign of the day.",
  getPlayer:
    "A player of your key's brand by its id: its status (which our team or a rule may change: `player.status.changed`), KYC status and registration data. 404 `PLAYER_NOT_FOUND` for an unknown id or another brand's player.",
  getResponsibleGaming:
    "The player's limits with what the current period has used and when it resets (in the operator's time zone: calendar day, week Monday to Sunday, calendar month), the change waiting for the cooling-off, the pause and the self-exclusion. Under `br-spa`, `centralSelfExclusionUrl` is the link to the SPA's central self-exclusion platform, to show wherever you show your own self-exclusion (Instrução Normativa SPA/MF 31/2025); null under `off`.",
  setLimit:
    'Sets a limit the player chose: `deposit`, `loss` and `wager` as money strings, `time` in whole minutes. A new or lower limit applies at once; a higher one waits for the cooling-off (24 h unless your operator settings say otherwise) and is shown in `pending`.',
  removeLimit:
    'Removes a limit after the cooling-off (`pending.value` null until then). Under the `br-spa` profile a player keeps at least one `loss` and one `time` limit: removing the last one answers 409 `LIMIT_REQUIRED`.',
  pausePlayer:
    'Pauses the player from 24 hours to 6 weeks ahead: deposits, game sessions and rounds answer 403 `RG_BLOCKED` (`details.reason` `paused`) until then. A pause cannot be shortened or lifted (409 `PAUSE_ACTIVE`); a longer one replaces it. Emits `player.paused`.',
  selfExclude:
    'Self-excludes the player for 1 to 12 months (`months`) or without end (`indefinite: true`): the status becomes `autoexcluido` at once (a closed account stays `encerrado`) and open game sessions end (`selfExclusionChange: started`). Asked again while one runs: a term ending at least 24 hours later, or one without end, extends it (`extended`, `player.self_excluded` again); the same request again (an end within 24 hours of the running end, or without end again) answers the running one (`unchanged`, no event). It cannot be shortened or lifted through the API (409 `SELF_EXCLUSION_ACTIVE`); a fixed term ends by itself (`player.self_exclusion.ended`), an indefinite one only by our compliance team after at least 30 days; at its end the player has the status they had before it (`ativo` unless our team had suspended or blocked them).',
  reportLogin:
    "Report each login of the player. Under the `br-spa` compliance profile the first of the day checks the SPA impediment registry: 200 `{ allowed: true }`, or 403 `PLAYER_IMPEDED` (a neutral message; the player becomes `restrito`, see `player.restricted`), or 503 `IMPEDIMENT_CHECK_UNAVAILABLE` with `Retry-After` when the registry does not answer and the player's last successful check is 15 days old or more. With the profile `off` it always answers `{ allowed: true }`.",
  sandboxAddImpediment:
    'Sandbox only: puts a CPF on the simulated SPA impediment registry of your operator, with a reason (`central_self_exclusion` or `social_program`). Registrations, logins, first deposits and game sessions of the day and sweeps of `br-spa` brands then see it impeded.',
  sandboxRemoveImpediment: 'Sandbox only: takes a CPF off the simulated SPA impediment registry of your operator. `removed` says whether it was there.',
  sandboxCheckImpediments:
    "Sandbox only: runs the player's impediment check now, as the next day's first login would, even when the player was checked today (under `br-spa`; `not_required` under `off`, nobody asked). A hit restricts the player as in production: status `restrito`, `player.restricted`, open game sessions ended, withdrawals only inside the window after the hit, closed after it (walk them with `POST /sandbox/players/{playerId}/next-day`). `outcome` is `impeded` for a player already restricted.",
  sandboxNextDay:
    "Sandbox only: moves the player's day forward by one. The clock cannot move for one player, so what the rules read of the player's past is made a day older: the last impediment check (the next login, deposit or game session checks again), the time of an impediment hit (the withdrawal window shrinks by a day; the player is closed, `encerrado`, once the closing's days have passed), the limits' pending changes (cooling-off), and demo play's usage (the day's loss, wager and time used become yesterday's). Money never moves in time: deposits, withdrawals and their deposit-limit usage keep their times, and so do pauses and self-exclusions. Each call is one more day.",
  sandboxSetHarmMarkers:
    "Sandbox only: makes the player show exactly the harm markers in `markers` (an empty list: none, a quiet player), so you can build what your front-end does at each level and marker before going live. The player's harm history is replaced by a made-up one (eight weeks of a usual player, then a recent week with each pattern asked) under your operator's thresholds, and the player is assessed at once: the answer is the level as `GET /players/{playerId}/harm-level` reads it, and `player.risk_level_changed` is sent when the level moved. 422 `VALIDATION_ERROR` when your thresholds make one marker's pattern fire another (the message names them). Events of the player counted afterwards add to the made-up days.",
  sandboxAddScreeningEntry:
    "Sandbox only: puts a CPF on your sandbox's simulated PEP (`pep`) or sanctions (`sanctions`) list; your `br-spa` sandbox players with that CPF are screened again before this answers. A sanctions hit freezes the player (status `bloqueado`: deposits, rounds and withdrawals answer 403 `PLAYER_NOT_ACTIVE`); a PEP hit changes nothing you can see (our compliance team reviews it). The answer names the entry only.",
  sandboxRemoveScreeningEntry:
    "Sandbox only: takes one of your sandbox's entries off the simulated lists. `removed` says whether it was there. A removal does not lift a freeze: that is our compliance team's decision.",
  getKyc: 'The KYC status of a player and the document submissions registered for it.',
  submitKyc:
    'Registers a KYC document submission (your reference to the stored file; the API never receives the file). The KYC status becomes `em_analise`; the decision is taken by the compliance team.',
  sandboxKycDecision: 'Sandbox only: simulates the compliance team decision (for example `aprovado`) and emits `kyc.status_changed`.',
  getWallet: 'The player balances: `available` is the real balance, `withdrawable` is `available` minus open withdrawals.',
  listTransactions: 'The player ledger, newest first, paginated with an opaque `cursor` taken from the previous `nextCursor`.',
  listPlayerRounds:
    "The player's rounds of third-party providers' games (`kind` `casino`) and bets with third-party sportsbooks (`kind` `sports`, with the bet slip and, once settled, the `outcome`), newest first by `openedAt`, paginated with an opaque `cursor` taken from the previous `nextCursor`. `staked` and `won` are the sums of the round's bets and wins; a round whose bets were all rolled back is `voided`. Rounds of our own studio's games are not listed here: they are in the player's transactions (`BET`/`WIN`, referenceId the round). Sports bets also come as webhooks: `sports_bet.placed`, `sports_bet.settled`.",
  createDeposit:
    'Under the compliance profile `br-spa`, `method` is one of `pix`, `ted`, `debit_card`, `prepaid_card` (else 422 `METHOD_NOT_ALLOWED`), and the first deposit of the day with no login reported checks the SPA impediment registry (403 `PLAYER_IMPEDED`). Creates a `pending` deposit. `currency` must be the player currency; `externalReference` (your payment reference) is unique per operator: a repeat answers 409 `DEPOSIT_ALREADY_EXISTS` with the existing deposit id in `details.depositId`.',
  confirmDeposit:
    "Confirms a pending deposit: the wallet is credited and `deposit.confirmed` is emitted. With the compliance profile `off` the body may be empty or omitted. Under `br-spa` it must carry the paying account's holder, `payer.cpf` (422 `PAYER_REQUIRED`); a payer CPF other than the player's is not credited: the answer is still 200, with the deposit `failed`, `failureReason` `payer_mismatch` and the payer it names (`payer.cpf` masked, `***.456.789-**`): read the status, not only the HTTP code. `deposit.failed` carries the same deposit and `refundRequired: true` (return the money to its origin).",
  failDeposit: 'Marks a pending deposit as failed, with an optional reason. Nothing is credited.',
  createWithdrawal:
    "Requests a withdrawal, which enters the team review queue as `under_review`. The balance is not debited until it is paid; `withdrawable` drops at once. Requires KYC `aprovado`. Under the compliance profile `br-spa`: `method` is one of `pix`, `ted`, `debit_card`, `prepaid_card` (else 422 `METHOD_NOT_ALLOWED`), and the destination must be the player's own: a PIX CPF key equal to the player's CPF, another PIX key whose owner (asked of the payment provider) is the player's CPF, or for `ted` `bank/branch/account/holderCpf` with the player's CPF (else 422 `DESTINATION_NOT_OWNED` with `details.reason`: `unknown_key`, no such PIX key; `other_owner`, another person's key or account, never whose; `not_verifiable`, a card or an account without a holder CPF). A CPF key is kept as its 11 digits, however it was typed. A player restricted by an impediment may withdraw for 2 days. Under `br-spa` the withdrawal carries `payoutDueAt`, 120 minutes after the request (the prize clock of Portaria SPA/MF 615/2024, art. 7 §4; null under `off`); if our team set an automatic approval amount for the operator and the withdrawal is below it, it is approved and paid without a person unless an AML review or an impediment holds the player's payouts: the answer is then `approved` and `withdrawal.status_changed` follows to `approved` and to `paid`.",
  getWithdrawal: 'Reads a withdrawal and its status.',
  cancelWithdrawal:
    'Cancels a withdrawal that is still `under_review`; an approved one answers 409 `WITHDRAWAL_NOT_CANCELLABLE`. The body may be empty or omitted.',
  sandboxAddPixKey:
    "Sandbox only: registers a PIX key (e-mail, phone or random key) and its owner's CPF in the simulated payment provider's directory, which `br-spa` withdrawals to such keys are checked against. A key it does not know is not the player's.",
  sandboxRemovePixKey: "Sandbox only: removes a PIX key from the simulated payment provider's directory.",
  sandboxWithdrawalDecision:
    'Sandbox only: simulates the team decision on a withdrawal: `approve` or `reject` one under review, `pay` an approved one (the wallet is debited only then). Emits `withdrawal.status_changed`.',
  listGames: 'The game catalogue available to the brand.',
  createGameSession:
    'Opens a game session and returns the `gameUrl` to open in the player browser (for example in an iframe). In sandbox it is a demonstration session with a fictitious balance. Requires KYC `aprovado` and player status `ativo`.',
  endGameSession:
    "Ends one of the player's game sessions now, e.g. when the player logs out of your site. At once its page answers 410 `GAME_SESSION_ENDED` and a third-party provider's bets on its session token are refused (`SESSION_TOKEN_EXPIRED` on the provider wallet API, each aggregator's closest status in its own protocol), while the wins, rollbacks and corrections of bets already taken still settle: money owed to the player is always paid. An ended session is never revived: open a new one. Idempotent: a session already ended (by you, by our team, by the player's self-exclusion or impediment, or by its own time or inactivity window) answers 200 with when it ended. (After a self-exclusion, a pause or an impediment a provider's bets are refused anyway, with the reason.) A session of another player, brand or environment answers 404 `GAME_SESSION_NOT_FOUND`. The body may be empty or omitted.",
  endPlayerGameSessions:
    'Ends every open game session of the player now (e.g. at logout, without keeping their ids), as `endGameSession` ends one, and answers the sessions it ended (an empty `data` when none was open). Idempotent. The body may be empty or omitted.',
  testWebhook:
    'Sends one `webhook.test` delivery now to the webhook URL configured for the environment of the key and reports how it went. No URL configured answers 409 `WEBHOOK_NOT_CONFIGURED`.',
  listWebhookEvents:
    'Events sent (or being sent) to the webhook endpoint of the environment of the key, newest first, with the state of their latest delivery. Filter by `type` or `deliveryStatus`; page with the opaque `cursor` taken from the previous `nextCursor`. Events of other operators and of the other environment are never listed.',
  listWebhookEventAttempts:
    'Every delivery attempt of one of your events, oldest first: URL, outcome, HTTP status or error, duration. A redelivery appears as a new `deliveryId` whose attempts count from 1. An event of another operator or environment answers 404 `WEBHOOK_EVENT_NOT_FOUND`.',
  redeliverWebhookEvent:
    'Schedules a new delivery of one of your events now, with the same event id and body (receivers deduplicate on `X-Webhook-Id`), and the full retry schedule. A 2xx from any delivery of the event, this one or another, ends the retries of all of them. Requires an `Idempotency-Key`: a retry with the same key answers the first redelivery. No URL configured answers 409 `WEBHOOK_NOT_CONFIGURED`.',
};
