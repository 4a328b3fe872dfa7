// Every NATS name is namespaced by NATS_PREFIX so several systems share one server safely.

export const DEFAULT_NATS_PREFIX = 'bo';

/** Request-reply subject of an operation: `<prefix>.rpc.<subject>`. */
export function rpcSubject(prefix: string, subject: string): string {
  return `${prefix}.rpc.${subject}`;
}

/** Events stream and its subjects: `<prefix>.events.<environment>.<type>`. */
export function eventsStreamName(prefix: string): string {
  return `${prefix.replace(/[^A-Za-z0-9_-]/g, '_')}_EVENTS`;
}
export function eventSubject(prefix: string, environment: string, type: string): string {
  return `${prefix}.events.${environment}.${type}`;
}
export function eventsWildcard(prefix: string): string {
  return `${prefix}.events.>`;
}

/**
 * Internal events between our services (never delivered to operators): their own stream,
 * `<PREFIX>_INTERNAL`, subjects `<prefix>.internal.<type>`.
 */
export function internalStreamName(prefix: string): string {
  return `${prefix.replace(/[^A-Za-z0-9_-]/g, '_')}_INTERNAL`;
}
export function internalEventSubject(prefix: string, type: string): string {
  return `${prefix}.internal.${type}`;
}
export function internalEventsWildcard(prefix: string): string {
  return `${prefix}.internal.>`;
}

/** Cache invalidation broadcasts (core NATS) between gateway replicas. */
export function gatewayInvalidateSubject(prefix: string): string {
  return `${prefix}.gateway.invalidate`;
}

/** The queue group every replica of a service joins. */
export function queueGroup(service: string): string {
  return `${service}-workers`;
}

/** Broadcast (core NATS) by the players service after a change to what players.state answers. */
export function playerChangedSubject(prefix: string): string {
  return `${prefix}.players.changed`;
}

/**
 * Broadcast (core NATS) by a players replica after a sandbox change to an operator's simulated SPA
 * registry: the other replicas reload that operator's mirror (services/players impediments/registry/simulator.ts).
 */
export function simulatedImpedimentsChangedSubject(prefix: string): string {
  return `${prefix}.players.simulated-impediments.changed`;
}
