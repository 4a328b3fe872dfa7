// Example requests and responses of every public operation, shown in the OpenAPI document, the
// /docs reference and the Postman collection. A test checks each against the operation's schema,
// so an example cannot drift from the contract.

const T0 = '2026-11-21T10:00:00.000Z';
const T1 = '2026-11-21T10:05:00.000Z';
const PLAYER_ID = 'plr_01934b7e8c8e7c3a9f2d1b0a11223344';
const DEPOSIT_ID = 'dep_01934b7e8c8e7c3a9f2d1b0a55667788';
const WITHDRAWAL_ID = 'wd_01934b7e8c8e7c3a9f2d1b0a99aabbcc';

const player = {
  id: PLAYER_ID, externalId: 'user-42', name: 'Ana Souza', email: 'ana@example.com', cpf: '52998224725',
  phone: '+5511987654321', birthDate: '1990-05-17', status: 'ativo', kycStatus: 'nao_iniciado', currency: 'BRL', createdAt: T0,
};
const kycRecord = (status: string) => ({
  playerId: PLAYER_ID, status,
  submissions: [{ id: 'kyc_01934b7e8c8e7c3a9f2d1b0addeeff00', documentType: 'rg', reference: 's3://kyc-docs/user-42/rg-front.jpg', createdAt: T0 }],
  updatedAt: T1,
});
const deposit = (status: 'pending' | 'confirmed' | 'failed') => ({
  id: DEPOSIT_ID, playerId: PLAYER_ID, amount: '100.00', currency: 'BRL', method: 'pix', externalReference: 'psp-7f3a9c',
  status, createdAt: T0, updatedAt: status === 'pending' ? T0 : T1,
  confirmedAt: status === 'confirmed' ? T1 : null, failedAt: status === 'failed' ? T1 : null,
  failureReason: status === 'failed' ? 'Payment expired at the PSP' : null,
});
const withdrawal = (status: string) => ({
  id: WITHDRAWAL_ID, playerId: PLAYER_ID, amount: '30.00', currency: 'BRL', method: 'pix', destination: 'ana@example.com',
  status, createdAt: T0, updatedAt: status === 'under_review' ? T0 : T1,
});

export interface OperationExample {
  /** Path parameters of the example (also what the Postman flow fills in). */
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: Record<string, unknown>;
  response: unknown;
}

export const OPERATION_EXAMPLES: Record<string, OperationExample> = {
  getMe: {
    response: {
      operator: { id: 'op_01934b7e8c8e7c3a9f2d1b0a00000001', name: 'Acme Bets', environment: 'sandbox' },
      brand: { id: 'br_01934b7e8c8e7c3a9f2d1b0a00000002', name: 'Acme Bets (sandbox)', currency: 'BRL', isSandbox: true },
      apiVersion: '1.1.0',
    },
  },
  createPlayer: {
    body: { externalId: 'user-42', name: 'Ana Souza', email: 'ana@example.com', cpf: '529.982.247-25', phone: '+5511987654321', birthDate: '1990-05-17' },
    response: player,
  },
  findPlayers: { query: { externalId: 'user-42' }, response: { data: [player] } },
  getKyc: { params: { playerId: PLAYER_ID }, response: kycRecord('em_analise') },
  submitKyc: {
    params: { playerId: PLAYER_ID },
    body: { documentType: 'rg', reference: 's3://kyc-docs/user-42/rg-front.jpg' },
    response: {
      id: 'kyc_01934b7e8c8e7c3a9f2d1b0addeeff00', playerId: PLAYER_ID, documentType: 'rg',
      reference: 's3://kyc-docs/user-42/rg-front.jpg', createdAt: T0, kycStatus: 'em_analise',
    },
  },
  sandboxKycDecision: { params: { playerId: PLAYER_ID }, body: { status: 'aprovado' }, response: kycRecord('aprovado') },
  getWallet: { params: { playerId: PLAYER_ID }, response: { playerId: PLAYER_ID, currency: 'BRL', available: '100.00', withdrawable: '70.00' } },
  listTransactions: {
    params: { playerId: PLAYER_ID }, query: { limit: 50 },
    response: {
      data: [{ id: 'le_01934b7e8c8e7c3a9f2d1b0a12121212', type: 'DEPOSIT', amount: '100.00', balanceAfter: '100.00', currency: 'BRL', referenceId: DEPOSIT_ID, createdAt: T1 }],
      nextCursor: null,
    },
  },
  createDeposit: {
    params: { playerId: PLAYER_ID },
    body: { amount: '100.00', currency: 'BRL', method: 'pix', externalReference: 'psp-7f3a9c' },
    response: deposit('pending'),
  },
  confirmDeposit: { params: { depositId: DEPOSIT_ID }, body: {}, response: deposit('confirmed') },
  failDeposit: { params: { depositId: DEPOSIT_ID }, body: { reason: 'Payment expired at the PSP' }, response: deposit('failed') },
  createWithdrawal: {
    params: { playerId: PLAYER_ID },
    body: { amount: '30.00', currency: 'BRL', method: 'pix', destination: 'ana@example.com' },
    response: withdrawal('under_review'),
  },
  getWithdrawal: { params: { withdrawalId: WITHDRAWAL_ID }, response: withdrawal('under_review') },
  cancelWithdrawal: { params: { withdrawalId: WITHDRAWAL_ID }, body: {}, response: withdrawal('cancelled') },
  sandboxWithdrawalDecision: { params: { withdrawalId: WITHDRAWAL_ID }, body: { decision: 'approve' }, response: withdrawal('approved') },
  listGames: {
    response: { data: [{ id: 'gm_aviator_demo', name: 'Aviator (demo)', provider: 'builtin', category: 'crash' }] },
  },
  createGameSession: {
    params: { playerId: PLAYER_ID }, body: { gameId: 'gm_aviator_demo' },
    response: {
      id: 'gs_01934b7e8c8e7c3a9f2d1b0a34343434', playerId: PLAYER_ID, gameId: 'gm_aviator_demo',
      gameUrl: 'https://api.example.com/play/eyJzIjoiZ3NfMDEifQ.c2lnbmF0dXJl', mode: 'demo', expiresAt: '2026-11-21T11:00:00.000Z', createdAt: T0,
    },
  },
  testWebhook: {
    response: { eventId: 'evt_01934b7e8c8e7c3a9f2d1b0a99887766', url: 'https://operator.example.com/webhooks', delivered: true, statusCode: 204, error: null, durationMs: 42 },
  },
};

/** Example body of each webhook event type (the `data` differs per type). */
export const WEBHOOK_EXAMPLES: Record<string, unknown> = {
  'kyc.status_changed': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000011', type: 'kyc.status_changed', createdAt: T1, environment: 'sandbox',
    data: { playerId: PLAYER_ID, externalId: 'user-42', previousStatus: 'em_analise', status: 'aprovado' },
  },
  'deposit.confirmed': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000012', type: 'deposit.confirmed', createdAt: T1, environment: 'sandbox', data: deposit('confirmed'),
  },
  'withdrawal.status_changed': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a00000013', type: 'withdrawal.status_changed', createdAt: T1, environment: 'sandbox',
    data: { withdrawal: withdrawal('approved'), previousStatus: 'under_review' },
  },
  'webhook.test': {
    id: 'evt_01934b7e8c8e7c3a9f2d1b0a99887766', type: 'webhook.test', createdAt: T0, environment: 'sandbox',
    data: { message: 'This is a test delivery from the back-office API.' },
  },
};
