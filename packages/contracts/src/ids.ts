import { uuidv7 } from 'uuidv7';

export const ID_PREFIXES = {
  operator: 'op',
  brand: 'brd',
  player: 'plr',
  kycSubmission: 'kyc',
  deposit: 'dep',
  withdrawal: 'wd',
  ledgerEntry: 'le',
  gameSession: 'gs',
  event: 'evt',
  request: 'req',
  audit: 'aud',
  /** A read of a player's personal data by our team (issue #69). */
  personalDataRead: 'pdr',
  /** A player's data request under the LGPD, filed by the operator (issue #69). */
  dataRequest: 'dsr',
  hold: 'hld',
  delivery: 'dlv',
  gameRound: 'gr',
  teamMember: 'usr',
  serviceToken: 'tok',
  credential: 'cred',
  amlCase: 'aml',
  // Issue #68 item 3: our team's harm cases and each interaction recorded in one.
  harmCase: 'hcs',
  harmInteraction: 'hin',
  harmMeasure: 'hms',
  provider: 'prv',
  providerSession: 'pss',
  providerTransaction: 'ptx',
  termsVersion: 'trm',
  termsAcceptance: 'tac',
  sigapFile: 'sgf',
  riskSubject: 'rsk',
  // Issue #46 item 4 (after an impediment hit): the communications log, unclaimed funds held, transfers to the funds.
  communication: 'com',
  unclaimedHold: 'uch',
  fundTransfer: 'fdt',
  // Issue #60: a transfer's half paid to FIES or FUNCAP through payments.
  fundPayout: 'fpo',
  // Issue #56: a compliance profile change that waits for a second person.
  complianceChange: 'cpc',
  // Issue #58: a connector's key (an aggregator's public key, or a key pair of ours).
  connectorKey: 'ck',
  connectorSecret: 'cs',
  // Issue #59 item 5: a game's certificate in the game register.
  gameCertificate: 'gcr',
  // Issue #59 items 2-3: a provider's revenue share (a change of it) and a daily statement's part.
  providerRevenueShare: 'prs',
  providerStatement: 'pds',
  // Issue #60 item 3: an integrity hold on a sports slip's prize.
  integrityHold: 'ihd',
} as const;
export type IdKind = keyof typeof ID_PREFIXES;

/** Opaque, time-sortable id: `<prefix>_` + the 32 hex digits of a UUIDv7. */
export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${uuidv7().replaceAll('-', '')}`;
}
