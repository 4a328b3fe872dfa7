// A per-process cache of players.state for the services that ask it on their hot paths (wallet
// reads and real-money rounds, deposit creation). The players service broadcasts
// `<prefix>.players.changed` after every commit that changes what players.state answers, before
// it replies, so a caller that saw the change acknowledged is served fresh state afterwards; a change
// of an operator's compliance profile empties the whole cache (EVERY_PLAYER).
// Core NATS is at most once: a broadcast is lost only around a broken connection, so the cache
// is emptied whenever this connection drops or reconnects, and entries live at most a minute.
// A self-exclusion that has run out is not served from the cache (its end is a time, not an event).
// The players domain's client, here beside the players messages it asks and hears (it was in the
// service kit, which is the runtime: issue #43).
import { EVERY_PLAYER, PLAYER_STATE_SUBJECT, type PlayerChanged, type PlayerState, type PlayerStateRequest } from './players.ts';
import type { RequestContext } from './messages.ts';
import { playerChangedSubject } from './subjects.ts';
import type { NatsConnection } from '@nats-io/transport-node';

export interface PlayerStateCache {
  /** players.state through the cache; unknown players are never cached (they may be created next). */
  get(brandId: string, playerId: string, ctx?: Partial<RequestContext>): Promise<PlayerState>;
  stop(): void;
}

interface Entry {
  brandId: string;
  state: PlayerState;
  expiresAt: number;
}

export function createPlayerStateCache(
  deps: {
    nc: NatsConnection;
    prefix: string;
    call<R>(subject: string, body: unknown, ctx?: Partial<RequestContext>): Promise<R>;
  },
  opts: { ttlMs?: number; maxEntries?: number } = {},
): PlayerStateCache {
  const ttlMs = opts.ttlMs ?? 60_000;
  const maxEntries = opts.maxEntries ?? 100_000;
  const entries = new Map<string, Entry>();
  // Bumped by every broadcast: an answer that was asked before a change is not stored after it.
  let generation = 0;

  const sub = deps.nc.subscribe(playerChangedSubject(deps.prefix), {
    callback: (err, msg) => {
      if (err) return;
      generation++;
      try {
        // Player ids are unique across brands: the id alone names the entry.
        const { playerId } = msg.json<PlayerChanged>();
        if (playerId === EVERY_PLAYER) entries.clear();
        else entries.delete(playerId);
      } catch {
        entries.clear();
      }
    },
  });

  void (async () => {
    for await (const s of deps.nc.status()) {
      if (s.type === 'disconnect' || s.type === 'reconnect') {
        generation++;
        entries.clear();
      }
    }
  })().catch(() => undefined);

  const fresh = (e: Entry, now: number) => e.expiresAt > now && !(e.state.selfExcludedUntil && Date.parse(e.state.selfExcludedUntil) <= now);

  return {
    async get(brandId, playerId, ctx) {
      const hit = entries.get(playerId);
      if (hit && hit.brandId === brandId && fresh(hit, Date.now())) return hit.state;
      const asked = generation;
      const state = await deps.call<PlayerState>(PLAYER_STATE_SUBJECT, { brandId, playerId } satisfies PlayerStateRequest, ctx);
      if (state.exists && asked === generation) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(playerId, { brandId, state, expiresAt: Date.now() + ttlMs });
      }
      return state;
    },
    stop() {
      sub.unsubscribe();
    },
  };
}

const perConnection = new WeakMap<NatsConnection, PlayerStateCache>();

/** The one cache of a running service (its modules share it), created on first use. */
export function playerStatesOf(deps: Parameters<typeof createPlayerStateCache>[0]): PlayerStateCache {
  let cache = perConnection.get(deps.nc);
  if (!cache) {
    cache = createPlayerStateCache(deps);
    perConnection.set(deps.nc, cache);
  }
  return cache;
}
