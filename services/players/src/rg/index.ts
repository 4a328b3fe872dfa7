// The responsible-gaming module's face: all the rest of the players service may import of it
// (docs/architecture.md, "One template per service").
// - The players module: a registration's first limits (`changeLimit`, `storedValue`), players.state's
//   rules (`limitRows`, `depositPerDay`, `rgRules`, `isSelfExcluded`), the admin file's limits
//   (`depositPerDayOf`, `toLimits`), the operator's compliance profile (`complianceOf`, read as the
//   rules read it; `complianceView`, `isTimeZone` for our team's settings) and what holds a status
//   (`standingOf`, `assertGenericChange`).
// - The impediments module: the restriction's status under a freeze (`setStatus`), the end of a
//   restricted player's game sessions (`endGameSessions`), the closures report's time zone
//   (`complianceOf`, `isTimeZone`).
export { rgModule } from './module.ts';
export { complianceView, isTimeZone } from './domain/compliance-profile.ts';
export { depositPerDay, rgRules, toLimits } from './domain/limits-view.ts';
export { isSelfExcluded } from './domain/responsible-gaming.ts';
export { storedValue } from './domain/rg-limits.ts';
export { assertGenericChange, setStatus, standingOf } from './domain/standing.ts';
export { endGameSessions } from './handlers/end-game-sessions.ts';
export { changeLimit } from './handlers/responsible-gaming.ts';
export { complianceOf, depositPerDayOf, limitRows } from './store/limits.ts';
