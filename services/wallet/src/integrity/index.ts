// The integrity module's face (issue #60 item 3): all the rest of the wallet may import of it.
export { integrityModule } from './module.ts';
export { holdWinIfHeld } from './handlers/held-win.ts';
export type { HeldWin, WinOfSlip } from './store/holds.ts';
