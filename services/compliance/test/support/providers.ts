// Third-party providers in the compliance stack (issue #44): a casino aggregator and a sportsbook
// registered by our team and enabled for the operator, each with one game (the casino's certified:
// br-spa bets need it, issue #59 item 5), and the provider wallet
// API called as their servers call it. The operators service's status (all the wallet asks of it
// for a bet) is a NATS responder here.
import type { Test } from 'tap';
import { randomBytes } from 'node:crypto';
import type { OperatorScope } from '@bo/contracts';
import { adminScope, certifiedGame, ok, PUT_CERTIFICATE_SUBJECT, startFakeProvider } from '@bo/test-support';
import { key, type ComplianceStack } from './stack.ts';

export const txId = (label: string) => `${label}-${randomBytes(6).toString('hex')}`;

export interface ProviderStand {
  providerId: string;
  providerName: string;
  gameId: string;
  gameCode: string;
  /** A provider API call (`bet`, `win`, `rollback`, `correction`); its answer's body. */
  call(op: string, body: unknown): Promise<any>;
  /** A session of the provider's game for the player: the token the provider got at launch. */
  tokenFor(scope: OperatorScope, playerId: string): Promise<string>;
}

export async function providerStands(t: Test, s: ComplianceStack, operatorId: string): Promise<{ casino: ProviderStand; sports: ProviderStand }> {
  const fake = await startFakeProvider(t);
  const sub = s.nc.subscribe(`${s.prefix}.rpc.operators.status.get`, {
    callback: (_e, msg) => {
      msg.respond(JSON.stringify({ ok: true, status: 200, body: { status: 'active' } }));
    },
  });
  t.teardown(() => sub.unsubscribe());
  const stand = async (kind: 'casino' | 'sportsbook', gameCode: string): Promise<ProviderStand> => {
    const provider = ok<{ id: string; name: string }>(
      await s.call('wallet.admin.providers.create', { scope: adminScope, body: { name: `${kind} ${txId('p')}`, kind, launchUrl: fake.url } }),
    );
    const game = ok<{ id: string }>(
      await s.call('wallet.admin.providers.putGame', { scope: adminScope, params: { id: provider.id, gameCode }, body: { name: gameCode, category: kind } }),
    );
    ok(await s.call('wallet.admin.providers.setOperator', { scope: adminScope, params: { id: provider.id, operatorId }, body: { enabled: true } }));
    // Under br-spa a casino game takes bets only with a valid certificate (issue #59 item 5).
    if (kind === 'casino') ok(await s.call(PUT_CERTIFICATE_SUBJECT, { scope: adminScope, ...certifiedGame(provider.id, gameCode) }));
    const pscope = { kind: 'provider' as const, providerId: provider.id, environment: 'production' as const };
    return {
      providerId: provider.id,
      providerName: provider.name,
      gameId: game.id,
      gameCode,
      call: async (op, body) => ok(await s.call(`wallet.provider.${op}`, { scope: pscope as never, body })),
      async tokenFor(scope, playerId) {
        ok(await s.call('games.sessions.create', { scope, key: key('gs'), params: { playerId }, body: { gameId: game.id } }));
        return fake.requests.at(-1)!.body.token as string;
      },
    };
  };
  return { casino: await stand('casino', 'sweet-fruits'), sports: await stand('sportsbook', 'sportsbook') };
}
