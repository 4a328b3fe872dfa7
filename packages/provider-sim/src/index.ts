// The provider simulator (issue #44): a casino aggregator and a sportsbook calling the provider
// wallet API through the gateway. `runSimulation` is what the CLI, the e2e suite and `npm run
// chaos` run; the parts are exported for tests that drive single calls.
export { AdminSide, SIM_GAMES, type SimGame, type SimProvider } from './admin-side.ts';
export { Book, type Accepted, type Counts, type TransactionAnswer } from './book.ts';
export { startLaunchServer, type Launch, type LaunchServer } from './launch-server.ts';
export { OperatorSide } from './operator-side.ts';
export { PlayerSession } from './player-session.ts';
export { ProviderClient, type ProviderAnswer } from './provider-client.ts';
export { DEFAULTS, runSimulation, type SimulationOptions, type SimulationSummary } from './simulator.ts';
export { duplicates, providerFunded, type ExpireSession } from './scenarios.ts';
export { reconcilePlantedStatement, SIM_STATEMENT_MAPPING, type PlantedDifferences, type StatementCheck } from './statement.ts';
export { runHub88Simulation, type Hub88SimulationOptions, type Hub88SimulationSummary } from './hub88/simulation.ts';
export { startHub88GamesServer, type Hub88GamesServer, type Hub88Launch } from './hub88/games-server.ts';
export { Hub88WalletClient, type Hub88Reply } from './hub88/wallet-client.ts';
export { runEvolutionSimulation, type EvolutionSimulationOptions, type EvolutionSimulationSummary } from './evolution/simulation.ts';
export { startEvolutionUaServer, type EvolutionUaServer } from './evolution/ua-server.ts';
export { EvolutionWalletClient, type EvolutionReply } from './evolution/wallet-client.ts';
export { runBetsySimulation, type BetsySimulationOptions, type BetsySimulationSummary } from './betsy/simulation.ts';
