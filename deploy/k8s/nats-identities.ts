// Who may say what on NATS: one user per component, allowed only the subjects it serves and calls,
// the broadcasts it sends or hears, and the JetStream streams, consumers and KV buckets it uses.
// The one source of the NATS server's `authorization {}` block: nats.yaml carries what
// `natsAuthorization` renders (`node deploy/k8s/nats-identities.ts --write` puts it there,
// check-manifests.ts fails when it differs), and test/e2e/nats-identities.test.ts runs a real
// nats-server with the same block. Subjects come from the contracts' definitions; the durable
// consumers' names from the services that create them.
import { fileURLToPath } from 'node:url';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  ACTIVITY_CHECK_SUBJECT,
  CLOSEOUT_SUBJECT,
  END_PLAYER_SESSIONS_SUBJECT,
  IMPEDED_CLOSE_SUBJECT,
  OPERATOR_COMPLIANCE_SUBJECT,
  PAYMENTS_RG_USAGE_SUBJECT,
  PLAYER_STATE_SUBJECT,
  WALLET_RG_DEMO_NEXT_DAY_SUBJECT,
  WALLET_RG_USAGE_SUBJECT,
  WALLET_SUBJECTS,
  adminOperations,
  amlMessages,
  brandMessages,
  eventsStreamName,
  eventsWildcard,
  gamePlayMessages,
  gatewayInvalidateSubject,
  impededClosureMessages,
  internalEventsWildcard,
  internalStreamName,
  operatorMessages,
  pingMessage,
  playerChangedSubject,
  playerSummaryMessages,
  publicOperations,
  recordRefusalMessage,
  regulatorFileMessages,
  regulatorProviderMessages,
  sanctionsFreezeMessages,
  PERSONAL_DATA_SERVICES,
  personalDataMessages,
  rpcSubject,
  simulatedImpedimentsChangedSubject,
  walletLedgerDayMessages,
  walletStakesMessages,
  harmPlayMessages,
  webhookMessages,
  walletOperations,
  providerOperations,
  providerMessages,
  providerInvalidateSubject,
  connectorMessages,
  fundPayoutMessages,
  impedimentNoticeMessages,
  teamMeasureMessages,
} from '@bo/contracts';
import { natsInboxPrefix } from '@bo/service-kit';
import { watchConsumerName } from '../../services/compliance/src/watch/event-watch.ts';
import { harmFeedConsumerNames } from '../../services/compliance/src/harm/harm-feed.ts';
import { auditIntakeConsumerName } from '../../services/operators/src/handlers/audit-intake.ts';
import { endpointSyncConsumerName } from '../../services/webhooks/src/delivery/endpoint-sync.ts';
import { webhooksConsumerName } from '../../services/webhooks/src/delivery/event-consumer.ts';

export const NATS_COMPONENTS = ['gateway', 'players', 'wallet', 'payments', 'webhooks', 'operators', 'compliance'] as const;
export type NatsComponent = (typeof NATS_COMPONENTS)[number];
export const NATS_SERVICES = NATS_COMPONENTS.filter((c) => c !== 'gateway');

/** What one component does on NATS, with subjects and names for a NATS_PREFIX. */
export interface NatsIdentity {
  /** Request-reply subjects (without `<prefix>.rpc.`) it answers: wildcards of the first token that names their owner. */
  serves: string[];
  /** Request-reply subjects (without `<prefix>.rpc.`) it asks. */
  calls: string[];
  /** Core NATS broadcasts it sends, and those it hears (full subjects). */
  broadcasts: string[];
  hears: string[];
  /** Event subjects its outbox relay publishes into JetStream (full subjects, wildcards). */
  publishesEvents: string[];
  /** Streams it creates or checks at start (and raises to NATS_REPLICAS). */
  streams: string[];
  /** Durable pull consumers it creates and consumes: stream and durable name. */
  consumers: Array<{ stream: string; name: string }>;
  /** KV buckets it creates and uses. */
  buckets: string[];
}

const subjectsOf = (table: object) =>
  Object.values(table as Record<string, { subject?: string }>)
    .map((o) => o.subject)
    .filter((s): s is string => s !== undefined);

/** Subjects served by a service other than the one their first token names. */
const SERVED_ELSEWHERE: Record<string, NatsComponent> = { games: 'wallet' };

/** The service that answers a request-reply subject (`players.state` → players, `games.*` → wallet). */
export function ownerOf(subject: string): NatsComponent | undefined {
  const first = subject.split('.')[0]!;
  const owner = SERVED_ELSEWHERE[first] ?? first;
  return (NATS_SERVICES as readonly string[]).includes(owner) ? (owner as NatsComponent) : undefined;
}

export function natsIdentities(prefix: string): Record<NatsComponent, NatsIdentity> {
  const events = eventsStreamName(prefix);
  const internal = internalStreamName(prefix);
  const serving = (svc: NatsComponent) => [svc, ...Object.keys(SERVED_ELSEWHERE).filter((k) => SERVED_ELSEWHERE[k] === svc)].map((t) => `${t}.>`);
  const service = (svc: NatsComponent, rest: Partial<NatsIdentity>): NatsIdentity => ({
    serves: serving(svc),
    calls: [],
    broadcasts: [],
    hears: [],
    // Every service's outbox relay sends its events to the events stream, made sure of at start.
    publishesEvents: [eventsWildcard(prefix)],
    streams: [events],
    consumers: [],
    buckets: [],
    ...rest,
  });
  const decides = { publishesEvents: [eventsWildcard(prefix), internalEventsWildcard(prefix)], streams: [events, internal] };
  return {
    // The edge: every operation of the public and admin tables, the launch page's game messages,
    // the operators service's credential and session messages, and each service's ping
    // (/readyz) and refusal record (idempotency). Never a wallet move, never an event.
    gateway: {
      serves: [],
      calls: [
        ...subjectsOf(publicOperations),
        ...subjectsOf(adminOperations),
        ...subjectsOf(gamePlayMessages),
        ...subjectsOf(operatorMessages),
        // The provider wallet API (/provider/v1) and its key lookup (docs/providers.md).
        ...subjectsOf(providerOperations),
        ...subjectsOf(providerMessages),
        // Connectors (docs/connectors.md): a provider's connector, the reads a call needs, the health counts.
        ...subjectsOf(connectorMessages),
        // GET /me tells the operator its compliance profile, which the players service owns.
        OPERATOR_COMPLIANCE_SUBJECT,
        ...NATS_SERVICES.flatMap((s) => [pingMessage(s).subject, recordRefusalMessage(s).subject]),
      ],
      broadcasts: [],
      hears: [gatewayInvalidateSubject(prefix), providerInvalidateSubject(prefix)],
      publishesEvents: [],
      streams: [],
      consumers: [],
      buckets: [`${prefix}_ratelimit`, `${prefix}_idempotency_keys`, `${prefix}_signatures`],
    },
    // Every service but operators also sends the audit rows of its admin changes and decisions to the
    // internal stream (audit.recorded, issue #56), made sure of at start.
    players: service('players', {
      ...decides,
      // The closing after an impediment hit asks the wallet to refund open bets and record the account, then payments for the balance.
      // A player's data request and the retention sweep ask every service that holds personal data (issue #69).
      calls: [
        WALLET_RG_USAGE_SUBJECT,
        WALLET_RG_DEMO_NEXT_DAY_SUBJECT,
        PAYMENTS_RG_USAGE_SUBJECT,
        END_PLAYER_SESSIONS_SUBJECT,
        IMPEDED_CLOSE_SUBJECT,
        CLOSEOUT_SUBJECT,
        ...PERSONAL_DATA_SERVICES.filter((s) => s !== 'players').flatMap((s) => subjectsOf(personalDataMessages(s))),
      ],
      broadcasts: [playerChangedSubject(prefix), simulatedImpedimentsChangedSubject(prefix)],
      hears: [simulatedImpedimentsChangedSubject(prefix)],
    }),
    // The wallet audits its providers' changes and the return of unclaimed funds to a bettor through its outbox.
    wallet: service('wallet', {
      ...decides,
      // A provider's bet asks the operator's status (docs/providers.md); a change of a provider drops the gateways' cached keys.
      // A provider's daily report counts each brand's day in its operator's zone (issue #61).
      // Its providers' open rounds and debts name their players (issue #61).
      // The unclaimed funds ask when the bettor was told of the block, and payments to pay a transfer to the funds (issue #60).
      calls: [
        PLAYER_STATE_SUBJECT,
        ACTIVITY_CHECK_SUBJECT,
        operatorMessages.status.subject,
        OPERATOR_COMPLIANCE_SUBJECT,
        playerSummaryMessages.summaries.subject,
        impedimentNoticeMessages.notice.subject,
        fundPayoutMessages.request.subject,
      ],
      broadcasts: [providerInvalidateSubject(prefix)],
      // The operators service's change broadcast drops an operator's cached status (a suspension stops provider bets at once).
      hears: [playerChangedSubject(prefix), gatewayInvalidateSubject(prefix)],
    }),
    // The one component that moves money in the wallet for deposits and withdrawals.
    payments: service('payments', {
      ...decides,
      calls: [
        PLAYER_STATE_SUBJECT,
        ACTIVITY_CHECK_SUBJECT,
        OPERATOR_COMPLIANCE_SUBJECT,
        amlMessages.holdCheck.subject,
        ...Object.values(WALLET_SUBJECTS),
        walletOperations.getWallet.subject,
        // The withdrawal review queue's cards name their players (issue #61).
        playerSummaryMessages.summaries.subject,
        // A transfer's half paid to FIES or FUNCAP, posted by the wallet (issue #60).
        fundPayoutMessages.post.subject,
      ],
      hears: [playerChangedSubject(prefix)],
    }),
    // Its redeliveries are audited through its outbox (internal stream).
    webhooks: service('webhooks', {
      publishesEvents: [eventsWildcard(prefix), internalEventsWildcard(prefix)],
      streams: [events, internal],
      consumers: [
        { stream: events, name: webhooksConsumerName(prefix) },
        { stream: internal, name: endpointSyncConsumerName(prefix) },
      ],
    }),
    operators: service('operators', {
      calls: [webhookMessages.upsertEndpoint.subject],
      broadcasts: [gatewayInvalidateSubject(prefix)],
      publishesEvents: [eventsWildcard(prefix), internalEventsWildcard(prefix)],
      streams: [events, internal],
      // The audit rows of the changes and decisions other services make.
      consumers: [{ stream: internal, name: auditIntakeConsumerName(prefix) }],
    }),
    compliance: service('compliance', {
      ...decides,
      calls: [
        PLAYER_STATE_SUBJECT,
        ...subjectsOf(sanctionsFreezeMessages),
        walletStakesMessages.stakes.subject,
        walletLedgerDayMessages.ledgerDay.subject,
        ...subjectsOf(regulatorFileMessages),
        ...subjectsOf(regulatorProviderMessages),
        // The players closed after an impediment hit (the SIGAP files' status 10), read only.
        ...subjectsOf(impededClosureMessages),
        OPERATOR_COMPLIANCE_SUBJECT,
        'players.admin.get',
        'players.admin.status',
        // A measure taken from a harm case, applied by the players service (issue #68).
        ...subjectsOf(teamMeasureMessages),
        // Whether a brand is one of ours before a regulator file is made for it (issue #61), and whose the hours of play are.
        brandMessages.get.subject,
        // The play the harm days read (issue #68): its hours, and the play before each deposit.
        ...subjectsOf(harmPlayMessages),
      ],
      // The AML watch, and the harm feed's consumers (issue #68; HARM_FEED).
      consumers: [watchConsumerName(prefix), ...harmFeedConsumerNames(prefix)].map((name) => ({ stream: events, name })),
    }),
  };
}

export interface NatsPermissions {
  publish: string[];
  subscribe: string[];
}

/** The NATS permissions of one identity: what it may publish and subscribe to, nothing else. */
export function natsPermissions(prefix: string, component: NatsComponent, identity = natsIdentities(prefix)[component]): NatsPermissions {
  const rpc = (s: string) => rpcSubject(prefix, s);
  const publish = new Set<string>();
  const subscribe = new Set<string>();
  const jsApi = (...subjects: string[]) => {
    for (const s of subjects) publish.add(`$JS.API.${s}`);
  };
  for (const s of identity.calls) publish.add(rpc(s));
  for (const s of identity.serves) subscribe.add(rpc(s));
  for (const s of identity.broadcasts) publish.add(s);
  for (const s of identity.hears) subscribe.add(s);
  for (const s of identity.publishesEvents) publish.add(s);
  if (identity.streams.length + identity.consumers.length + identity.buckets.length > 0) jsApi('INFO');
  for (const s of identity.streams) jsApi(`STREAM.INFO.${s}`, `STREAM.CREATE.${s}`, `STREAM.UPDATE.${s}`);
  for (const { stream, name } of identity.consumers) {
    jsApi(
      `STREAM.INFO.${stream}`,
      `CONSUMER.CREATE.${stream}.${name}`,
      `CONSUMER.CREATE.${stream}.${name}.>`,
      `CONSUMER.DURABLE.CREATE.${stream}.${name}`,
      `CONSUMER.INFO.${stream}.${name}`,
      `CONSUMER.MSG.NEXT.${stream}.${name}`,
    );
    // Acknowledgements (ack, nak, term, in progress) of the messages it was given.
    publish.add(`$JS.ACK.${stream}.${name}.>`);
  }
  for (const b of identity.buckets) {
    const s = `KV_${b}`;
    jsApi(`STREAM.INFO.${s}`, `STREAM.CREATE.${s}`, `STREAM.UPDATE.${s}`, `STREAM.MSG.GET.${s}`, `DIRECT.GET.${s}`, `DIRECT.GET.${s}.>`);
    jsApi(`CONSUMER.*.${s}`, `CONSUMER.*.${s}.>`);
    publish.add(`$KV.${b}.>`);
    publish.add(`$JS.FC.${s}.>`);
  }
  // Replies (request-reply, JetStream API and publish acknowledgements, pulled messages) arrive in
  // its own inbox only, never another identity's (the kit connects with this prefix).
  subscribe.add(`${natsInboxPrefix(component)}.>`);
  return { publish: [...publish], subscribe: [...subscribe] };
}

/**
 * The second site's identity (docs/continuity.md, "JetStream on the second site"): the streams a site
 * mirrors from the other, where their messages arrive, and the one user both ends of the leafnode
 * connection between the sites use. On the site that is mirrored, the other site's NATS connects
 * as this user (a leafnode, permissions read as a client's): it may create and delete its mirrors'
 * consumers on these streams only, through the other domain's JetStream API, answer their flow
 * control and receive their messages; it cannot publish an event, call a service or hear a request.
 * On the mirroring site, the mirror Job (deploy/second-site/active/nats-mirrors.yaml) connects as the same user
 * to create the mirrors and, on a fail-over, to promote them.
 */
export const MIRROR_USER = 'mirror';
export const mirroredStreams = (prefix: string) => [eventsStreamName(prefix), internalStreamName(prefix)];
/** The subject prefix a mirror's messages are delivered on across the leafnode connection. */
export const mirrorDeliverPrefix = (prefix: string) => `${prefix}.mirror`;

export function mirrorPermissions(prefix: string): NatsPermissions {
  const publish: string[] = ['$JS.API.INFO', '$JS.API.STREAM.NAMES', '$JS.API.STREAM.LIST'];
  for (const s of mirroredStreams(prefix)) {
    // Across the leafnode, into the mirrored site's domain (`$JS.<domain>.API`, either site's).
    publish.push(`$JS.*.API.STREAM.INFO.${s}`, `$JS.*.API.CONSUMER.CREATE.${s}`, `$JS.*.API.CONSUMER.CREATE.${s}.>`, `$JS.*.API.CONSUMER.DELETE.${s}.>`);
    publish.push(`$JS.FC.${s}.>`);
    // On its own site: the mirror streams themselves (created, read, promoted), never deleted or purged.
    publish.push(`$JS.API.STREAM.INFO.${s}`, `$JS.API.STREAM.CREATE.${s}`, `$JS.API.STREAM.UPDATE.${s}`, `$JS.API.STREAM.MSG.GET.${s}`);
  }
  return {
    publish,
    // The mirrors' messages, the JetStream API's answers to the leafnode's requests, its own inbox.
    subscribe: [`${mirrorDeliverPrefix(prefix)}.>`, '$JSC.R.>', `${natsInboxPrefix(MIRROR_USER)}.>`],
  };
}

/**
 * The identity of a restore to a point in time (docs/runbook.md, "Restore from backup"): the one that
 * makes JetStream forget the old system's history (scripts/jetstream-forget.ts). It may read the events
 * and internal streams' state, list their consumers and purge them; it cannot publish an event, read
 * one, call a service or delete a stream.
 */
export const RESTORE_USER = 'restore';

export function restorePermissions(prefix: string): NatsPermissions {
  const publish: string[] = ['$JS.API.INFO'];
  // The events and internal streams: the two the second site mirrors.
  for (const s of mirroredStreams(prefix)) publish.push(`$JS.API.STREAM.INFO.${s}`, `$JS.API.STREAM.PURGE.${s}`, `$JS.API.CONSUMER.LIST.${s}`);
  return { publish, subscribe: [`${natsInboxPrefix(RESTORE_USER)}.>`] };
}

/** The users beside the components': each with its password variable and its own block. */
type OtherUser = typeof MIRROR_USER | typeof RESTORE_USER;

/** The environment variable that carries a component's NATS password into the NATS server's pod. */
export const natsPasswordVariable = (component: string) => `NATS_PASSWORD_${component.toUpperCase()}`;

/**
 * The server's `authorization {}` block: a user per component, its password from the server's
 * environment (`$NATS_PASSWORD_<COMPONENT>`), its permissions, and answers allowed only to requests
 * it was given (`allow_responses`). `passwords` replaces the variables with values (the test's
 * server, which has no such environment).
 */
export function natsAuthorization(prefix: string, passwords?: Partial<Record<NatsComponent | OtherUser, string>>): string {
  const list = (items: string[]) => `[${items.map((s) => JSON.stringify(s)).join(', ')}]`;
  /** One user's block: `connectionTypes` and `allowResponses` only where the user has them. */
  const block = (user: NatsComponent | OtherUser, p: NatsPermissions, o: { connectionTypes?: string[]; allowResponses?: boolean } = {}) =>
    [
      `    {`,
      `      user: ${user}`,
      `      password: ${passwords?.[user] !== undefined ? JSON.stringify(passwords[user]) : `$${natsPasswordVariable(user)}`}`,
      ...(o.connectionTypes ? [`      allowed_connection_types: ${list(o.connectionTypes)}`] : []),
      `      permissions: {`,
      `        publish: { allow: ${list(p.publish)} }`,
      `        subscribe: { allow: ${list(p.subscribe)} }`,
      ...(o.allowResponses ? [`        allow_responses: true`] : []),
      `      }`,
      `    }`,
    ].join('\n');
  const users = NATS_COMPONENTS.map((c) => block(c, natsPermissions(prefix, c), { allowResponses: true }));
  // The other site's mirrors and the restore's (a test's server given passwords without one runs without that user).
  if (!passwords || passwords[MIRROR_USER] !== undefined)
    users.push(block(MIRROR_USER, mirrorPermissions(prefix), { connectionTypes: ['STANDARD', 'LEAFNODE'] }));
  if (!passwords || passwords[RESTORE_USER] !== undefined) users.push(block(RESTORE_USER, restorePermissions(prefix)));
  return [`authorization {`, `  users: [`, ...users, `  ]`, `}`].join('\n');
}

/** Where nats.yaml's config holds the generated block. */
export const AUTH_BEGIN = '# BEGIN nats-identities.ts (generated: node deploy/k8s/nats-identities.ts --write)';
export const AUTH_END = '# END nats-identities.ts';

/** nats.yaml's text with the block between the markers replaced by the one generated for `prefix`. */
export function withGeneratedAuthorization(natsYaml: string, prefix: string): string {
  const start = natsYaml.indexOf(AUTH_BEGIN);
  const end = natsYaml.indexOf(AUTH_END);
  if (start < 0 || end < start) throw new Error(`nats.yaml lacks the markers ${AUTH_BEGIN} … ${AUTH_END}`);
  const indent = natsYaml.slice(natsYaml.lastIndexOf('\n', start) + 1, start);
  const block = natsAuthorization(prefix)
    .split('\n')
    .map((l) => indent + l)
    .join('\n');
  return `${natsYaml.slice(0, start)}${AUTH_BEGIN}\n${block}\n${indent}${natsYaml.slice(end)}`;
}

// `node deploy/k8s/nats-identities.ts --write [dir]`: renders the block into nats.yaml (NATS_PREFIX of configmap.yaml).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = path.resolve(process.argv.find((a, i) => i > 1 && !a.startsWith('--')) ?? import.meta.dirname);
  const prefix = /^\s*NATS_PREFIX:\s*"?([A-Za-z0-9_-]+)"?\s*$/m.exec(readFileSync(path.join(dir, 'configmap.yaml'), 'utf8'))?.[1];
  if (!prefix) throw new Error('configmap.yaml sets no NATS_PREFIX');
  const file = path.join(dir, 'nats.yaml');
  if (process.argv.includes('--write')) writeFileSync(file, withGeneratedAuthorization(readFileSync(file, 'utf8'), prefix));
  else process.stdout.write(`${natsAuthorization(prefix)}\n`);
}
