// Domain rules as plain functions, without NATS or Postgres.
import t from 'tap';
import { AppError, KYC_STATUSES } from '@bo/contracts';
import { statusAfterSubmission } from '../../src/kyc/domain/kyc-rules.ts';
import { isSelfExcluded } from '../../src/rg/domain/responsible-gaming.ts';

t.test('a submission moves every status but aprovado to em_analise', async (t) => {
  for (const status of KYC_STATUSES.filter((s) => s !== 'aprovado')) t.equal(statusAfterSubmission(status), 'em_analise', status);
  t.throws(() => statusAfterSubmission('aprovado'), new AppError('KYC_ALREADY_APPROVED'));
});

t.test('self-exclusion: autoexcluido, or an end still in the future', async (t) => {
  const now = new Date('2026-11-21T10:00:00.000Z');
  t.equal(isSelfExcluded('ativo', null, now), false);
  t.equal(isSelfExcluded('autoexcluido', null, now), true);
  t.equal(isSelfExcluded('autoexcluido', new Date('2020-01-01T00:00:00.000Z'), now), true, 'the status wins over a past date');
  t.equal(isSelfExcluded('ativo', new Date('2026-11-21T10:00:00.001Z'), now), true, 'one millisecond ahead');
  t.equal(isSelfExcluded('ativo', new Date('2026-11-21T10:00:00.000Z'), now), false, 'ends exactly now');
  t.equal(isSelfExcluded('suspenso', new Date('2026-11-20T10:00:00.000Z'), now), false);
});
