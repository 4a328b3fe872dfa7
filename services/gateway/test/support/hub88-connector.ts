// A Hub88 connector set up by our team through the admin API, as the tests that play Hub88 need it and
// connector-hub88.test.ts asserts step by step: the provider registered with protocol hub88, its production
// environment given Hub88's operator_id and API, Hub88's public key and a key pair of ours, Hub88's game list
// synced into the catalogue and the provider offered to the operator; and Hub88's Wallet API calls signed
// with Hub88's private key. One place, so a change to the set-up lands in every Hub88 test.
import { randomBytes } from 'node:crypto';
import { signHub88, type Hub88Answer } from '@bo/contracts';
import type { Hub88Standin } from '@bo/test-support';
import type { Harness } from './harness.ts';

/** Hub88's units: 1.00 is 100000. */
export const hub88Units = (money: string) => Math.round(Number(money) * 100) * 1000;

export interface Hub88Connector {
  providerId: string;
  /** The endpoint URL we hand Hub88: the gateway's `/connectors/hub88/<provider>/production`. */
  base: string;
  /** Our catalogue id of one of Hub88's games, by its game_code. */
  gameId(gameCode: string): string;
  /** A Wallet API call as Hub88 makes it: the exact bytes, signed with Hub88's private key. */
  call(path: string, body: unknown): Promise<Hub88Answer>;
}

export async function setUpHub88Connector(
  h: Harness,
  hub88: Hub88Standin,
  opts: { operatorId: string; name?: string; hub88OperatorId?: number },
): Promise<Hub88Connector> {
  const admin = async (method: string, path: string, body?: unknown) => {
    const r = await h.admin(method, path, body);
    if (r.status !== 200 && r.status !== 201) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const provider = await admin('POST', '/admin/providers', {
    name: opts.name ?? `Hub88 ${randomBytes(3).toString('hex')}`,
    kind: 'casino',
    protocol: 'hub88',
  });
  const P = `/admin/providers/${provider.id}/connector/production`;
  await admin('PUT', P, { settings: { operatorId: opts.hub88OperatorId ?? 4242, apiBaseUrl: hub88.url } });
  await admin('POST', `${P}/their-keys`, { publicKey: hub88.keys.publicKeyPem });
  hub88.trust((await admin('POST', `${P}/our-keys`, {})).publicKey);
  await admin('POST', `${P}/sync-games`);
  await admin('PUT', `/admin/providers/${provider.id}/operators/${opts.operatorId}`, { enabled: true });
  const catalogue = (await admin('GET', `/admin/providers/${provider.id}/games`)).data as Array<{ id: string; gameCode: string }>;
  const base = `${h.gateways[0]!.publicUrl}/connectors/hub88/${provider.id}/production`;
  return {
    providerId: provider.id,
    base,
    gameId(gameCode) {
      const game = catalogue.find((g) => g.gameCode === gameCode);
      if (!game) throw new Error(`${gameCode} is not one of the Hub88 games synced`);
      return game.id;
    },
    async call(path, body) {
      const text = JSON.stringify(body);
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub88-signature': signHub88(text, hub88.keys.privateKey) },
        body: text,
      });
      return (await res.json()) as Hub88Answer;
    },
  };
}
