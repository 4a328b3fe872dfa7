// Issue #59 item 5: under Brazil's rules the provider wallet refuses a bet on a game without a valid
// certificate (GAME_NOT_CERTIFIED); each connector answers it in its closest status, the one it gives
// a game that cannot be played: Hub88's RS_ERROR_INVALID_GAME, Evolution's FINAL_ERROR_ACTION_FAILED
// (the casino's side, as a disabled table). Only a bet is refused so; its wins and rollbacks settle.
import t from 'tap';
import { hub88StatusOf } from '../src/connectors/hub88/statuses.ts';
import { evolutionStatusOf } from '../src/connectors/evolution/statuses.ts';

t.test("GAME_NOT_CERTIFIED in each connector's statuses", async (t) => {
  t.equal(hub88StatusOf('bet', { code: 'GAME_NOT_CERTIFIED', details: { gameCode: 'sweet-fruits' } }), 'RS_ERROR_INVALID_GAME', 'Hub88: a bet');
  t.equal(evolutionStatusOf('debit', { code: 'GAME_NOT_CERTIFIED', details: { gameCode: 'table-1' } }), 'FINAL_ERROR_ACTION_FAILED', 'Evolution: a debit');
  t.equal(hub88StatusOf('win', { code: 'GAME_NOT_CERTIFIED' }), 'RS_ERROR_UNKNOWN', 'never a win (wins are never refused for it)');
});
