// What the players schema holds about a player, by category (issue #69; docs/privacy.md): the
// registration itself, KYC, impediment checks, responsible gaming, communications, marketing consent
// and connection records. The CPF, name and birth date are anonymised only when the duty that keeps
// them ends (five years after the account is closed): never while the account is open. Only a terms
// acceptance's IP is a connection record, anonymised six months after it was collected.
import { KIT_TABLES_WITHOUT_PLAYERS, type PersonalDataCatalogue } from '@bo/service-kit';

const ofPlayer = 'player_id = ?';
const ANONYMISED_TEXT = `'anonimizado'`;

export const playersPersonalData: PersonalDataCatalogue = {
  service: 'players',
  schema: 'players',
  players: {
    players: {
      category: 'identity',
      rowsOf: 'id = ?',
      orderBy: 'id',
      // The sign-up IP is registration data br-spa requires (Portaria SPA/MF 1.231/2024 art. 31 as
      // amended): kept with the registration, never as a connection record (its loss would block the player).
      columns: {
        email: 'contact',
        phone: 'contact',
        address: 'contact',
        marketing_consent: 'marketing',
        marketing_consent_changed_at: 'marketing',
      },
      anonymise: {
        name: `'Anonimizado'`,
        cpf: `'00000000000'`,
        birth_date: 'null',
        gender: 'null',
        email: `''`,
        phone: 'null',
        address: 'null',
        signup_ip: 'null',
        marketing_consent: 'false',
      },
    },
    registration_changes: {
      category: 'contact',
      rowsOf: ofPlayer,
      orderBy: 'id',
      anonymise: { old_value: `'"anonimizado"'::jsonb`, new_value: `'"anonimizado"'::jsonb` },
      appendOnly: true,
    },
    kyc_submissions: { category: 'kyc', rowsOf: ofPlayer, orderBy: 'created_at, id', anonymise: { reference: ANONYMISED_TEXT } },
    kyc_history: { category: 'kyc', rowsOf: ofPlayer, orderBy: 'id' },
    impediment_checks: { category: 'eligibility', rowsOf: ofPlayer, orderBy: 'id', anonymise: { cpf: `'00000000000'` } },
    // Our internal registry and the sandbox's simulated one are lists of CPFs: the player's entries are theirs.
    internal_impediments: { category: 'eligibility', rowsOf: 'cpf = (select cpf from players.players where id = ?)', orderBy: 'added_at' },
    simulated_impediments: { category: 'eligibility', rowsOf: 'cpf = (select cpf from players.players where id = ?)', orderBy: 'created_at' },
    player_status_history: { category: 'responsibleGaming', rowsOf: ofPlayer, orderBy: 'id' },
    rg_limits: { category: 'responsibleGaming', rowsOf: ofPlayer, orderBy: 'id' },
    rg_history: { category: 'responsibleGaming', rowsOf: ofPlayer, orderBy: 'id' },
    // The measures our team took from the player's harm case, each kept once (issue #68).
    team_measures: { category: 'responsibleGaming', rowsOf: ofPlayer, orderBy: 'applied_at, id' },
    communications: { category: 'communications', rowsOf: ofPlayer, orderBy: 'recorded_at, id' },
    marketing_suppressions: { category: 'marketing', rowsOf: ofPlayer, orderBy: 'id' },
    terms_acceptances: {
      category: 'identity',
      rowsOf: ofPlayer,
      orderBy: 'accepted_at, id',
      collectedAt: 'accepted_at',
      columns: { ip: 'connection' },
      anonymise: { ip: `''` },
      appendOnly: true,
    },
    // The file of an access request is a copy of the rest (left out of the next file); a correction names values.
    data_requests: {
      category: 'identity',
      rowsOf: ofPlayer,
      orderBy: 'received_at, id',
      internal: ['answer_file'],
      // A correction's answer names the values before and after: anonymised with the rest.
      anonymise: { corrections: 'null', answer_file: 'null', answer: `case when answer -> 'corrected' is not null then answer - 'corrected' else answer end` },
    },
  },
  none: {
    ...KIT_TABLES_WITHOUT_PLAYERS,
    operator_compliance: "an operator's compliance profile",
    compliance_changes: "changes of an operator's compliance profile",
    terms_versions: "an operator's published terms",
    impediment_sweeps: "a sweep's progress: counts",
  },
};
