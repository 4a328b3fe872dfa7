// KYC moves the contract allows (docs/decisions.md): a submission moves any status but aprovado to
// em_analise; a decision (team or sandbox) sets any status but nao_iniciado.
import { AppError, type KycStatus } from '@bo/contracts';

export function statusAfterSubmission(current: KycStatus): KycStatus {
  if (current === 'aprovado') throw new AppError('KYC_ALREADY_APPROVED');
  return 'em_analise';
}
