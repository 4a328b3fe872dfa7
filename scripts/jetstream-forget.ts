// `NATS_URL=… npm run jetstream:forget -- --prefix <NATS_PREFIX>`, in production with NATS_USER=restore,
// NATS_PASSWORD and NATS_TLS_CA_FILE (the `restore` identity, deploy/k8s/nats-identities.ts, may do this
// and nothing else): the step of a restore to a point in
// time T (docs/runbook.md, "Restore from backup") that keeps the restored system from acting on the
// history it no longer has. JetStream is not restored with the database: the events and internal
// streams still hold what the old system published after T, and whatever its consumers had not taken,
// or had taken and not acknowledged when they stopped, would reach the restored system: a deposit it
// does not have, delivered to an operator; an audit row of an action it never took.
//
// A purge drops every message of both streams. The streams, their consumers (their positions move past
// the purge), the second site's mirrors and each stream's duplicate window stay. What the purge may drop
// of the history before T (published before T, not yet taken) is published again from the restored
// outboxes: `npm run outbox:republish -- --since <T minus 15 minutes>`, run once the duplicate window
// (2 minutes) has passed since T, or JetStream drops the copies as duplicates.
import { eventsStreamName, internalStreamName } from '@bo/contracts';
import { connectNats } from '@bo/service-kit';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';

export interface StreamForgotten {
  stream: string;
  /** Messages dropped. */
  purged: number;
  /** What each consumer had not taken or not acknowledged when the stream was purged. */
  consumers: Array<{ name: string; notTaken: number; notAcknowledged: number }>;
}

/** Purges the events and internal streams of `prefix`; a stream that does not exist is left alone. */
export async function forgetJetStreamHistory(nc: NatsConnection, prefix: string): Promise<StreamForgotten[]> {
  const jsm = await jetstreamManager(nc);
  const forgotten: StreamForgotten[] = [];
  for (const stream of [eventsStreamName(prefix), internalStreamName(prefix)]) {
    const exists = await jsm.streams.info(stream).then(
      () => true,
      () => false,
    );
    if (!exists) continue;
    const consumers: StreamForgotten['consumers'] = [];
    for await (const c of jsm.consumers.list(stream)) consumers.push({ name: c.name, notTaken: c.num_pending, notAcknowledged: c.num_ack_pending });
    const { purged } = await jsm.streams.purge(stream);
    forgotten.push({ stream, purged, consumers });
  }
  return forgotten;
}

if (import.meta.main) {
  const at = process.argv.indexOf('--prefix');
  const prefix = at > 0 ? process.argv[at + 1] : undefined;
  const url = process.env.NATS_URL;
  if (!prefix || !url) {
    console.error(
      'usage: NATS_URL=… [NATS_USER=restore NATS_PASSWORD=… NATS_TLS_CA_FILE=…] npm run jetstream:forget -- --prefix <NATS_PREFIX of the system restored>',
    );
    process.exit(2);
  }
  const { NATS_USER, NATS_PASSWORD, NATS_TLS_CA_FILE, NATS_TLS_CERT_FILE, NATS_TLS_KEY_FILE } = process.env;
  const nc = await connectNats(url, 'jetstream-forget', false, { NATS_USER, NATS_PASSWORD, NATS_TLS_CA_FILE, NATS_TLS_CERT_FILE, NATS_TLS_KEY_FILE });
  try {
    console.log(JSON.stringify({ prefix, forgotten: await forgetJetStreamHistory(nc, prefix) }));
  } finally {
    await nc.close();
  }
}
