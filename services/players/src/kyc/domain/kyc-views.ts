// A player's KYC record as the contract shows it: timestamps as ISO 8601 UTC with milliseconds.
import type { DocumentType, KycRecord, KycStatus } from '@bo/contracts';

/** The player's fields the record reads. */
interface KycPlayerFields {
  id: string;
  kycStatus: KycStatus;
  kycUpdatedAt: Date;
}

interface KycSubmissionFields {
  id: string;
  documentType: DocumentType;
  reference: string;
  createdAt: Date;
}

export function toKycSubmission(row: KycSubmissionFields): KycRecord['submissions'][number] {
  return { id: row.id, documentType: row.documentType, reference: row.reference, createdAt: row.createdAt.toISOString() };
}

/** Submissions must already be newest first. */
export function toKycRecord(player: KycPlayerFields, submissions: KycSubmissionFields[]): KycRecord {
  return {
    playerId: player.id,
    status: player.kycStatus,
    submissions: submissions.map(toKycSubmission),
    updatedAt: player.kycUpdatedAt.toISOString(),
  };
}
