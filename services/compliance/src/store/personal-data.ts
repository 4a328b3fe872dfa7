// What compliance holds about a player (issue #69; docs/privacy.md): AML cases with their evidence and
// steps, the player's risk, sanctions screening, the money it watched, the regulator's daily file
// lines, and the harm markers' days and levels (issue #68). AML data is never shown to the player (Lei 9.613/1998, art. 11, II: no tipping-off); the
// screening's copy of the identity and the destinations watched are anonymised when the duty ends.
import { KIT_TABLES_WITHOUT_PLAYERS, type PersonalDataCatalogue } from '@bo/service-kit';

const ofPlayer = 'player_id = ?';
const ofCases = 'case_id in (select id from compliance.cases where player_id = ?)';

export const compliancePersonalData: PersonalDataCatalogue = {
  service: 'compliance',
  schema: 'compliance',
  players: {
    cases: { category: 'aml', rowsOf: ofPlayer, orderBy: 'opened_at, id' },
    case_evidence: { category: 'aml', rowsOf: ofCases, orderBy: 'id' },
    case_steps: { category: 'aml', rowsOf: ofCases, orderBy: 'id' },
    player_risk: { category: 'aml', rowsOf: ofPlayer, orderBy: 'player_id' },
    player_risk_history: { category: 'aml', rowsOf: ofPlayer, orderBy: 'id' },
    screened_players: {
      category: 'aml',
      rowsOf: ofPlayer,
      orderBy: 'player_id',
      anonymise: { cpf: `'00000000000'`, name: `'Anonimizado'`, birth_date: 'null' },
    },
    screening_simulator_entries: {
      category: 'aml',
      rowsOf: 'cpf = (select cpf from compliance.screened_players where player_id = ?)',
      orderBy: 'created_at, id',
    },
    watched_money: { category: 'aml', rowsOf: ofPlayer, orderBy: 'occurred_at, event_id', anonymise: { destination: 'null' } },
    daily_file_lines: { category: 'play', rowsOf: ofPlayer, orderBy: 'date, part, ref' },
    // The harm markers' counts and levels (issue #68): the monitoring Lei 14.790/2023 art. 23 §3 asks for.
    harm_events: { category: 'responsibleGaming', rowsOf: ofPlayer, orderBy: 'occurred_at, event_id' },
    harm_days: { category: 'responsibleGaming', rowsOf: ofPlayer, orderBy: 'day' },
    harm_levels: { category: 'responsibleGaming', rowsOf: ofPlayer, orderBy: 'player_id' },
    harm_level_history: { category: 'responsibleGaming', rowsOf: ofPlayer, orderBy: 'id' },
    harm_pending: { category: 'responsibleGaming', rowsOf: ofPlayer, orderBy: 'player_id' },
    harm_play_hours: { category: 'responsibleGaming', rowsOf: ofPlayer, orderBy: 'hour' },
    // Our team's harm cases and what it said or did (issue #68 item 3): the player may read them (not AML).
    harm_cases: { category: 'responsibleGaming', rowsOf: ofPlayer, orderBy: 'opened_at, id' },
    harm_interactions: {
      category: 'responsibleGaming',
      rowsOf: 'case_id in (select id from compliance.harm_cases where player_id = ?)',
      orderBy: 'at, id',
    },
    // The measures our team took from the case (a pause, a limit, a reality check, a recommendation to self-exclude).
    harm_measures: { category: 'responsibleGaming', rowsOf: ofPlayer, orderBy: 'requested_at, id' },
  },
  none: {
    ...KIT_TABLES_WITHOUT_PLAYERS,
    annual_reports: "an operator's annual AML report",
    brand_rules: "a brand's AML thresholds",
    harm_thresholds: "an operator's harm thresholds",
    harm_play_read: "where the harm play pass reads the wallet's hours from",
    daily_reports: "a brand's daily report: its lines (daily_file_lines) name the players",
    operator_cnpjs: "an operator's CNPJ",
    risk_assessments: "an operator's risk assessment",
    risk_subjects: 'the risk of staff, partners and suppliers (not bettors)',
    risk_subject_ratings: "a risk subject's ratings",
    // The regulator's files as filed hold bettors' CPFs: kept as sent, by the duty to report (Portaria SPA/MF 722/2024).
    sigap_files: "the regulator's files as filed (kept as sent; a player's lines are in daily_file_lines)",
    sigap_monthly_reports: "the regulator's monthly reports as filed",
  },
};
