// The schema's shared store, and its face: the one entity list and the one migration list of the
// `players` schema (a migration's name and place are recorded in the database, so they are not split
// by module), and the player row every module reads and locks. Each module keeps its own statements
// in its own store/.
export {
  CommunicationEntity,
  ComplianceChangeEntity,
  MarketingSuppressionEntity,
  RegistrationChangeEntity,
  ImpedimentSweepEntity,
  InternalImpedimentEntity,
  KycHistoryEntity,
  KycSubmissionEntity,
  OperatorComplianceEntity,
  PlayerEntity,
  playerEntities,
  RgHistoryEntity,
  TeamMeasureEntity,
  RgLimitEntity,
  TermsAcceptanceEntity,
  TermsVersionEntity,
  type CommunicationRow,
  type ComplianceChangeRow,
  type ImpedimentMoment,
  type ImpedimentSweepRow,
  type InternalImpedimentRow,
  type KycHistoryRow,
  type KycSubmissionRow,
  type MarketingSuppressionRow,
  type RegistrationChangeRow,
  type OperatorComplianceRow,
  type PlayerRow,
  type RgChangeBy,
  type RgHistoryKind,
  type RgLimitRow,
  type TermsAcceptanceRow,
  type TermsVersionRow,
} from './entities.ts';
export { playerMigrations } from './migrations.ts';
export { dayBounds, operatorOfBrand } from './brand-days.ts';
export { timeZoneOf } from './operator-time-zone.ts';
export { findPlayer, lockPlayer, requirePlayer, writeStatusChanged, type PlayerAddress } from './players.ts';
