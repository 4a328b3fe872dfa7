// The screening simulator: its lists are rows of compliance.screening_simulator_entries, which our
// team edits through the admin API (a change screens every watched player again) and an operator's
// test key through the sandbox routes (its own sandbox players only). Matching is by CPF, exactly:
// what a provider's confirmed match on the Brazilian tax id would give.
import type { Sql } from '@bo/service-kit';
import { simulatorMatches } from '../store/screenings.ts';
import type { ScreeningPort } from './port.ts';

export function screeningSimulator(sql: Sql): ScreeningPort {
  return { screen: (subject, caller) => simulatorMatches(sql, subject, caller) };
}
