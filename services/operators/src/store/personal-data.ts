// What the operators service holds about a player (issue #69; docs/privacy.md): who of our team read
// the player's personal data (personal_data_reads) and our team's changes to the player (audit_log,
// target `player:<id>`). Both name the player by its id; an audit row's values before and after lose
// the player's personal fields when the player is anonymised (what was decided, by whom and when stay).
import { KIT_TABLES_WITHOUT_PLAYERS, type PersonalDataCatalogue } from '@bo/service-kit';

/** The player's personal fields as the services' answers name them (an audit row keeps a player's view). */
const PERSONAL_FIELDS = `'{name,cpf,email,phone,birthDate,gender,address,signupIp}'::text[]`;

export const operatorsPersonalData: PersonalDataCatalogue = {
  service: 'operators',
  schema: 'operators',
  players: {
    personal_data_reads: { category: 'reads', rowsOf: 'player_id = ?', orderBy: 'at, id' },
    audit_log: {
      category: 'reads',
      rowsOf: `target = 'player:' || ?`,
      orderBy: 'at, id',
      anonymise: { before: `before - ${PERSONAL_FIELDS}`, after: `after - ${PERSONAL_FIELDS}` },
    },
  },
  none: {
    ...KIT_TABLES_WITHOUT_PLAYERS,
    operators: 'operators',
    brands: "operators' brands",
    credentials: "operators' API keys",
    team_members: 'our team (not bettors)',
    team_member_confirmations: "our team's confirmations",
    service_tokens: "our team's tokens",
    console_sessions: "our team's console sessions",
    sign_in_throttle: "our team's failed sign-ins",
  },
};
