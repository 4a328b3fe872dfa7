// What the wallet holds about a player (issue #69; docs/privacy.md): accounts, the ledger, holds,
// games and the provider wallet's rounds, sessions and transactions, limits' usage. Every row names
// the player by its pseudonymous id and keeps amounts and times: nothing here is anonymised, so the
// ledger verifies the same after the players service anonymised the person behind the id.
import { KIT_TABLES_WITHOUT_PLAYERS, type PersonalDataCatalogue } from '@bo/service-kit';

const ofPlayer = 'player_id = ?';
const ofAccounts = 'account_id in (select id from wallet.accounts where player_id = ?)';

export const walletPersonalData: PersonalDataCatalogue = {
  service: 'wallet',
  schema: 'wallet',
  players: {
    accounts: { category: 'money', rowsOf: ofPlayer, orderBy: 'created_at, id' },
    ledger_entries: { category: 'money', rowsOf: ofAccounts, orderBy: 'account_id, account_seq', internal: ['posted_xid'] },
    holds: { category: 'money', rowsOf: ofAccounts, orderBy: 'created_at, id' },
    impeded_accounts: { category: 'money', rowsOf: ofPlayer, orderBy: 'created_at' },
    unclaimed_holds: { category: 'money', rowsOf: ofPlayer, orderBy: 'held_at, id' },
    fund_transfers: { category: 'money', rowsOf: ofPlayer, orderBy: 'recorded_at, id' },
    provider_debts: { category: 'money', rowsOf: ofPlayer, orderBy: 'provider_id, currency' },
    rg_usage: { category: 'responsibleGaming', rowsOf: ofAccounts, orderBy: 'hour' },
    rg_demo_players: { category: 'play', rowsOf: ofPlayer, orderBy: 'account_id' },
    rg_demo_usage: { category: 'play', rowsOf: 'account_id in (select account_id from wallet.rg_demo_players where player_id = ?)', orderBy: 'hour' },
    game_sessions: { category: 'play', rowsOf: ofPlayer, orderBy: 'created_at, id' },
    game_rounds: { category: 'play', rowsOf: 'session_id in (select id from wallet.game_sessions where player_id = ?)', orderBy: 'session_id, seq' },
    provider_sessions: { category: 'play', rowsOf: ofPlayer, orderBy: 'created_at, id', internal: ['token_hash'] },
    provider_rounds: { category: 'play', rowsOf: ofPlayer, orderBy: 'opened_at, provider_id, round_id' },
    provider_transactions: { category: 'play', rowsOf: ofPlayer, orderBy: 'created_at, id' },
    provider_bet_updates: {
      category: 'play',
      rowsOf: '(provider_id, round_id) in (select provider_id, round_id from wallet.provider_rounds where player_id = ?)',
      orderBy: 'id',
    },
    provider_statement_lines: { category: 'play', rowsOf: ofPlayer, orderBy: 'statement_id, line' },
    integrity_holds: { category: 'play', rowsOf: ofPlayer, orderBy: 'placed_at, id' },
    integrity_held_wins: { category: 'play', rowsOf: 'hold_id in (select id from wallet.integrity_holds where player_id = ?)', orderBy: 'held_at' },
  },
  none: {
    ...KIT_TABLES_WITHOUT_PLAYERS,
    ledger_transactions: "a transaction's header: its entries (ledger_entries) name the accounts",
    clearing_rollup: 'where the clearing roll-up stands',
    fund_payouts: "a transfer's half paid to a fund (FIES, FUNCAP): the transfer names the player",
    fund_payout_requests: 'when a fund payout was asked for',
    game_certificates: "a game's certificate",
    games: 'the game catalogue',
    providers: 'game providers',
    provider_operators: 'which operators a provider serves',
    provider_connectors: "an aggregator connector's settings",
    provider_connector_keys: "an aggregator connector's keys",
    provider_connector_secrets: "an aggregator connector's secrets",
    provider_connector_health: "an aggregator connector's calls by hour",
    provider_credentials: "a provider's credentials",
    provider_revenue_shares: "a provider's revenue share",
    provider_statements: "a provider's uploaded statement: its lines name the players",
    provider_statement_mappings: "how a provider's statement columns are read",
    provider_reconciliations: "a provider's day reconciled: counts",
    provider_reconciliation_differences: "a difference between our transaction and the provider's, by transaction id",
  },
};
