// What payments holds about a player (issue #69; docs/privacy.md): deposits with their payer (CPF,
// name, bank, account) and withdrawals with their destination. The payer's and the destination's
// personal data are anonymised when the duty that keeps them ends; amounts, statuses and times stay.
import { KIT_TABLES_WITHOUT_PLAYERS, type PersonalDataCatalogue } from '@bo/service-kit';

export const paymentsPersonalData: PersonalDataCatalogue = {
  service: 'payments',
  schema: 'payments',
  players: {
    deposits: {
      category: 'money',
      rowsOf: 'player_id = ?',
      orderBy: 'created_at, id',
      internal: ['confirm_scope', 'confirm_key', 'confirm_fingerprint'],
      anonymise: { payer_cpf: 'null', payer_name: 'null', payer_bank: 'null', payer_account: 'null', owner_cpf: 'null' },
    },
    withdrawals: {
      category: 'money',
      rowsOf: 'player_id = ?',
      orderBy: 'created_at, id',
      internal: ['request_scope', 'request_key', 'action_scope', 'action_key', 'request_fingerprint'],
      anonymise: { destination: `'anonimizado'` },
    },
    // The sandbox's simulated PIX keys, by the CPF that owns them.
    simulated_pix_keys: { category: 'money', rowsOf: 'owner_cpf in (select owner_cpf from payments.deposits where player_id = ?)', orderBy: 'created_at' },
  },
  none: {
    ...KIT_TABLES_WITHOUT_PLAYERS,
    fund_payouts: 'payouts to the funds (FIES, FUNCAP)',
    simulated_fund_transfers: "the sandbox's simulated transfers to the funds",
    auto_approval: "an operator's automatic approval threshold",
    four_eyes: "an operator's four-eyes threshold",
  },
};
