// Intake of the decisions other services audit: a durable JetStream consumer of the internal
// stream's `audit.recorded` events (written by the deciding service in the decision's transaction,
// service-kit audit-outbox.ts). Each is inserted under its own id, so a redelivery, a relay's
// re-send or a second replica changes nothing; it is acked after its commit. A message that is not
// an audit row is logged and terminated, not retried.
import { Value } from '@sinclair/typebox/value';
import { AUDIT_RECORDED, AuditRecordedSchema, internalEventSubject, internalStreamName } from '@bo/contracts';
import {
  ensureInternalStream,
  startDurableConsumer,
  type BackgroundTask,
  type DurableConsumerOptions,
  type Logger,
  type ServiceDeps,
  type Sql,
} from '@bo/service-kit';

type JsMsg = Parameters<DurableConsumerOptions['onMessage']>[0];
import { recordAuditOnce } from '../store/audit.ts';

export function auditIntakeConsumerName(prefix: string): string {
  return `${prefix}_operators_audit`;
}

export interface AuditIntakeOptions {
  nc: ServiceDeps['nc'];
  prefix: string;
  replicas: number;
  sql: Sql;
  log: Logger;
}

async function insert(o: AuditIntakeOptions, m: JsMsg): Promise<void> {
  let data: unknown;
  try {
    data = m.json<{ data?: unknown }>().data;
  } catch {
    data = undefined;
  }
  if (!Value.Check(AuditRecordedSchema, data)) {
    o.log.error({ subject: m.subject, seq: m.seq }, 'unusable audit event dropped');
    m.term('not an audit.recorded event');
    return;
  }
  try {
    await recordAuditOnce(o.sql, data);
  } catch (err) {
    o.log.warn({ err, auditId: data.id }, 'could not write an audit row; it will be redelivered');
    m.nak(1000);
    return;
  }
  m.ack();
}

/** Starts the consumer (the kit's durable consumer: recreated if it disappears); unready while it is not consuming. */
export function startAuditIntake(o: AuditIntakeOptions): BackgroundTask {
  return startDurableConsumer({
    name: 'audit intake consumer',
    nc: o.nc,
    consumer: {
      stream: internalStreamName(o.prefix),
      name: auditIntakeConsumerName(o.prefix),
      filterSubject: internalEventSubject(o.prefix, AUDIT_RECORDED),
      ackWaitMs: 30_000,
      replicas: o.replicas,
    },
    ensureStream: () => ensureInternalStream(o.nc, o.prefix, o.replicas),
    maxMessages: 64,
    onMessage: (m) => insert(o, m),
    log: o.log,
  });
}
