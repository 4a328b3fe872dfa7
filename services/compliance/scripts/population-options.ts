// The simulated population's command-line options, shared by harm:simulate and harm:simulate:system
// (the same defaults: the population docs/player-protection.md records figures for).
export const POPULATION_OPTIONS = {
  players: { type: 'string', default: '1000' },
  escalating: { type: 'string', default: '100' },
  newcomers: { type: 'string', default: '100' },
  days: { type: 'string', default: '120' },
  seed: { type: 'string', default: '68' },
} as const;
