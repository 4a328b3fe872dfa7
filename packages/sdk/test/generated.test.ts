// operations.generated.ts is derived from @bo/contracts: this fails when a contract changed and
// the file was not regenerated (`npm run generate -w @bo/sdk`).
import t from 'tap';
import { readFileSync } from 'node:fs';
import { ERROR_CATALOGUE, EVENT_TYPES as CONTRACT_EVENT_TYPES, openApiPath, publicOperations } from '@bo/contracts';
import { GENERATED_PATH, renderOperationsFile } from '../scripts/generate-operations.ts';
import { ERROR_STATUSES, EVENT_TYPES, OPERATIONS } from '../src/index.ts';

t.test('the generated file is what the generator writes from the current contracts', async (t) => {
  t.equal(readFileSync(GENERATED_PATH, 'utf8'), renderOperationsFile(), 'operations.generated.ts is up to date (run npm run generate -w @bo/sdk)');
});

t.test('the operation table matches publicOperations', async (t) => {
  const fromContracts = Object.values(publicOperations).map((op) => ({
    id: op.id,
    method: op.method,
    path: openApiPath(op.path),
    idempotent: 'idempotent' in op && op.idempotent === true,
    sandboxOnly: 'sandboxOnly' in op && op.sandboxOnly === true,
    hasBody: 'body' in op,
    status: op.status,
  }));
  const inSdk = Object.values(OPERATIONS).map((op) => ({
    id: op.id,
    method: op.method,
    path: op.path,
    idempotent: op.idempotent,
    sandboxOnly: op.sandboxOnly,
    hasBody: op.hasBody,
    status: op.status,
  }));
  t.same(inSdk, fromContracts);
  t.same(
    Object.values(OPERATIONS)
      .filter((op) => op.idempotent)
      .map((op) => op.id)
      .sort(),
    [
      'acceptTerms',
      'cancelWithdrawal',
      'confirmDeposit',
      'createDeposit',
      'createPlayer',
      'createWithdrawal',
      'endGameSession',
      'endPlayerGameSessions',
      'failDeposit',
      'fileDataRequest',
      'pausePlayer',
      'publishTermsVersion',
      'recordCommunication',
      'redeliverWebhookEvent',
      'removeLimit',
      'selfExclude',
      'setLimit',
      'setMarketingConsent',
      'submitKyc',
      'updatePlayer',
    ],
    "the seven idempotent operations of the contract, the redelivery of 1.2.0, the responsible-gaming changes of 1.3.0, 1.4.0: terms versions and acceptances, the communications log, issue #60: the registration data and the marketing consent, issue #66: the end of game sessions, and issue #69: a player's data request",
  );
});

t.test('error codes and event types match the catalogue', async (t) => {
  t.same(ERROR_STATUSES, Object.fromEntries(Object.entries(ERROR_CATALOGUE).map(([code, e]) => [code, e.status])));
  t.same(EVENT_TYPES, CONTRACT_EVENT_TYPES);
});
