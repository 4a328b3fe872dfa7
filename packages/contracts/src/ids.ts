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
  hold: 'hld',
  delivery: 'dlv',
  gameRound: 'gr',
  teamMember: 'usr',
  serviceToken: 'tok',
  credential: 'cred',
  amlCase: 'aml',
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
  // Issue #56: a compliance profile change that waits for a second person.
  complianceChange: 'cpc',
  // Issue #58: a connector's key (an aggregator's public key, or a key pair of ours).
  connectorKey: 'ck',
} as const;
export type IdKind = keyof typeof ID_PREFIXES;

/** Opaque, time-sortable id: `<prefix>_` + the 32 hex digits of a UUIDv7. */
export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${uuidv7().replaceAll('-', '')}`;
}
