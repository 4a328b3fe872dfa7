// The layout of a SIGAP file, in this one module: OUR ASSUMPTION (`sigap-assumed/1`), not the
// SIGAP manual's data model, which is not public (docs/aml.md, "SIGAP files": what was found and
// what is pending). What public sources do say, and this follows:
//   - the file types: bets on sports, online games, wallets and bettors (Serpro's count of the files
//     received, 2025), plus legal destinations (Portaria SPA/MF 722/2024 art. 10);
//   - a file holds at most 7,000 records (same source: SIGAP_RECORDS_PER_FILE);
//   - the bettor's account status codes 1 Ativo, 2 Cancelado, 4 Autoexcluído, 6 Suspenso
//     preventivamente, 7 Excluído judicialmente, 10 Exclusão – Programas Sociais (the SPA's FAQ on
//     social-programme beneficiaries, items 10 and 19, gov.br).
// Everything else (JSON, the header with the operator's CNPJ, every field name, the record per
// movement, the wallet's nested movements, the share of legal destinations, the monthly report) is ours, chosen to carry what art. 10 names
// from the ledger-tied daily file, and to be replaced here once the manual is in hand. The maker
// (reports/sigap-files.ts) writes files of this layout; the simulator's checks (checks.ts) read it.
import { sigapStatusOfImpediment, type PlayerStatus, type SigapFileType } from '@bo/contracts';

export const SIGAP_LAYOUT = 'sigap-assumed/1';
/** Records per file at most (public: "each file holds up to 7 thousand records", Serpro, 2025). */
export const SIGAP_MAX_RECORDS = 7000;

/**
 * The SIGAP status code of a bettor (the codes are the SPA FAQ's; which of our statuses each code
 * stands for is our reading). `restrito` and `encerrado` after an impediment hit: 10 when the hit was
 * a social programme's, 4 for the centralised self-exclusion (the FAQ keeps 10 after the account is
 * closed); the other hits (our internal registry) 6. `bloqueado` (a sanctions freeze) is 6 too: a
 * preventive suspension until its case is decided.
 */
export function statusCodeOf(status: PlayerStatus, impediment: string | null): number {
  // The hit's code is contracts' `sigapStatusOfImpediment`: the players service's closures report gives the same.
  if ((status === 'restrito' || status === 'encerrado') && impediment) return Number(sigapStatusOfImpediment(impediment.split(',')));
  switch (status) {
    case 'ativo':
      return 1;
    case 'encerrado':
      return 2;
    case 'autoexcluido':
      return 4;
    case 'suspenso':
    case 'bloqueado':
    case 'restrito':
      return 6;
  }
}
/** The codes the public FAQ names; a record with another is a quality rejection. */
export const SIGAP_STATUS_CODES = [1, 2, 4, 6, 7, 10] as const;

export type FieldKind =
  | 'text'
  | 'money'
  /** A correction: signed. */
  | 'signed_money'
  | 'time'
  | 'date'
  | 'cpf'
  /** 14 digits with valid check digits (issue #60: the operator's CNPJ in every header). */
  | 'cnpj'
  | 'int'
  | 'bool'
  | 'currency'
  | 'odds'
  | 'rate'
  | 'movements';

export interface FieldSpec {
  kind: FieldKind;
  nullable?: boolean;
  /** The values it may take. */
  oneOf?: readonly (string | number)[];
}

/**
 * A movement record's kind (online games and sports bets). Besides the bettor's bets, wins, rollbacks
 * and corrections, what a game provider funded (issue #59 item 1), each its own kind so that no
 * provider's money passes for the bettor's (docs/aml.md, "SIGAP files"):
 *   free_bet      a bet the provider funded: `amount` its stake, which no bettor's balance paid
 *                 (the ledger moved nothing for it);
 *   free_bet_win  the win of a free bet or free round, and free rounds' winnings (FREE_BET_WIN);
 *   promo_credit  a tournament prize, a promotion's prize, a cash-back (PROMO_CREDIT);
 *   jackpot_win   a jackpot prize (JACKPOT_WIN).
 * Every amount is unsigned but a correction's; the three credits are among the wallet's `other`.
 */
export const MOVE_KINDS = ['bet', 'win', 'rollback', 'correction', 'free_bet', 'free_bet_win', 'promo_credit', 'jackpot_win'] as const;
/** The kinds that need not name a game: a credit the provider may pay outside any round (its `roundId` is its promotion's or jackpot's id). */
export const GAMELESS_KINDS: readonly string[] = ['promo_credit', 'jackpot_win'];

/** Each file type's record: its fields, in the order the maker writes them. */
export const RECORD_FIELDS: Record<SigapFileType, Record<string, FieldSpec>> = {
  bettors: {
    playerId: { kind: 'text' },
    cpf: { kind: 'cpf' },
    name: { kind: 'text' },
    birthDate: { kind: 'date', nullable: true },
    registeredAt: { kind: 'time' },
    statusCode: { kind: 'int', oneOf: SIGAP_STATUS_CODES },
    status: { kind: 'text' },
    kycStatus: { kind: 'text' },
    registeredOnDay: { kind: 'bool' },
    statusChangedOnDay: { kind: 'bool' },
  },
  wallets: {
    playerId: { kind: 'text' },
    cpf: { kind: 'cpf', nullable: true },
    currency: { kind: 'currency' },
    opening: { kind: 'signed_money' },
    deposits: { kind: 'money' },
    withdrawals: { kind: 'signed_money' },
    bets: { kind: 'signed_money' },
    wins: { kind: 'money' },
    other: { kind: 'signed_money' },
    closing: { kind: 'signed_money' },
    movements: { kind: 'movements' },
  },
  online_games: {
    id: { kind: 'text' },
    playerId: { kind: 'text' },
    providerId: { kind: 'text', nullable: true },
    providerName: { kind: 'text' },
    /** Null only for a promotional credit or a jackpot win outside a round (GAMELESS_KINDS). */
    gameCode: { kind: 'text', nullable: true },
    roundId: { kind: 'text' },
    kind: { kind: 'text', oneOf: MOVE_KINDS },
    amount: { kind: 'signed_money' },
    currency: { kind: 'currency' },
    at: { kind: 'time' },
  },
  sports_bets: {
    id: { kind: 'text' },
    playerId: { kind: 'text' },
    providerId: { kind: 'text' },
    providerName: { kind: 'text' },
    betId: { kind: 'text' },
    kind: { kind: 'text', oneOf: MOVE_KINDS },
    amount: { kind: 'signed_money' },
    currency: { kind: 'currency' },
    sport: { kind: 'text', nullable: true },
    event: { kind: 'text', nullable: true },
    market: { kind: 'text', nullable: true },
    selection: { kind: 'text', nullable: true },
    odds: { kind: 'odds', nullable: true },
    eventStartsAt: { kind: 'time', nullable: true },
    outcome: { kind: 'text', nullable: true },
    at: { kind: 'time' },
  },
  legal_destinations: {
    currency: { kind: 'currency' },
    stakes: { kind: 'money' },
    prizes: { kind: 'money' },
    otherMovements: { kind: 'signed_money' },
    ggr: { kind: 'signed_money' },
    rate: { kind: 'rate' },
    share: { kind: 'money' },
  },
};

/** A wallet record's movement (a deposit credited or a withdrawal paid that day). */
export const MOVEMENT_FIELDS: Record<string, FieldSpec> = {
  id: { kind: 'text' },
  type: { kind: 'text', oneOf: ['deposit', 'withdrawal'] },
  amount: { kind: 'money' },
  method: { kind: 'text', nullable: true },
  /** A deposit's payer CPF, a withdrawal's destination (the bettor's own account: Portaria 615/2024 art. 3). */
  counterpart: { kind: 'text', nullable: true },
  at: { kind: 'time' },
};

/** The header every file carries before its records. */
export const HEADER_FIELDS: Record<string, FieldSpec> = {
  layout: { kind: 'text', oneOf: [SIGAP_LAYOUT] },
  fileType: { kind: 'text', oneOf: Object.keys(RECORD_FIELDS) },
  operatorId: { kind: 'text', nullable: true },
  /** The operator's CNPJ (issue #60): always for a production brand (its files are not made without it); null only in the sandbox. */
  operatorCnpj: { kind: 'cnpj', nullable: true },
  brandId: { kind: 'text' },
  referenceDate: { kind: 'date' },
  timeZone: { kind: 'text' },
  from: { kind: 'time' },
  to: { kind: 'time' },
  version: { kind: 'int' },
  part: { kind: 'int' },
  parts: { kind: 'int' },
  recordCount: { kind: 'int' },
  generatedAt: { kind: 'time' },
};

/** The share of the day's gross gaming revenue owed to the legal destinations (Lei 13.756/2018 art. 30 as amended by Lei 14.790/2023: 12%; secondary). */
export const LEGAL_DESTINATIONS_RATE = '0.12';

/** The file's name: brand, day, type, version and part (ours). */
export const sigapFileName = (brandId: string, date: string, fileType: SigapFileType, version: number, part: number, parts: number) =>
  `sigap_${brandId}_${date}_${fileType}_v${version}_${part}-of-${parts}.json`;

/** The monthly report's layout (issue #60: the manual asks for one besides the daily files; its content is ours). */
export const SIGAP_MONTHLY_LAYOUT = 'sigap-assumed-monthly/1';

/** The monthly report's name: brand, month and version (ours). */
export const sigapMonthlyFileName = (brandId: string, month: string, version: number) => `sigap_${brandId}_${month}_monthly_v${version}.json`;
