// The rounds' facts a wallet replica keeps from their bets (handlers/round-facts.ts): per provider
// and round, the oldest let go first when full. What the win does with them (its statement checks
// the round open and nothing owed, else reads the round) is tested in providers.test.ts.
import t from 'tap';
import { roundFactsCache, type RoundFacts } from '../src/providers/handlers/round-facts.ts';

const facts = (playerId: string): RoundFacts => ({
  environment: 'production',
  kind: 'casino',
  brandId: 'brd_1',
  playerId,
  currency: 'BRL',
  gameId: 'gm_1',
  funding: 'player',
});

t.test('kept per provider and round', async (t) => {
  const rounds = roundFactsCache();
  rounds.keep('prv_a', 'r1', facts('plr_1'));
  t.same(rounds.get('prv_a', 'r1'), facts('plr_1'));
  t.equal(rounds.get('prv_b', 'r1'), undefined, "another provider's round of the same id is not this one");
  t.equal(rounds.get('prv_a', 'r2'), undefined);
});

t.test('full: the oldest kept goes first; keeping one again does not evict another', async (t) => {
  const rounds = roundFactsCache(2);
  rounds.keep('prv_a', 'r1', facts('plr_1'));
  rounds.keep('prv_a', 'r2', facts('plr_2'));
  rounds.keep('prv_a', 'r2', facts('plr_2'));
  t.ok(rounds.get('prv_a', 'r1'), 'r1 kept: r2 was already there');
  rounds.keep('prv_a', 'r3', facts('plr_3'));
  t.equal(rounds.get('prv_a', 'r1'), undefined, 'r1, the oldest, let go');
  t.same([rounds.get('prv_a', 'r2')?.playerId, rounds.get('prv_a', 'r3')?.playerId], ['plr_2', 'plr_3']);
});
