// The webhook endpoints as the gateway (which owns operators) sends them: by request, when our
// team changes one (the URL is validated here first), and as internal events written in the
// transaction of each change. A change carries the endpoint's version at the gateway; one not
// newer than the stored version changes nothing, so requests and events may arrive in any
// order and twice. Without a version (tools, tests) a change always applies.
import type { Environment } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';

export interface EndpointChange {
  operatorId: string;
  environment: Environment;
  brandId: string;
  /** Absent: keep the stored URL. */
  url?: string | null;
  /** Absent: keep the stored secret. */
  secretSealed?: string;
  version?: number;
  /** The secret before a rotation and until when it still signs; absent: keep, null: none. */
  previousSecretSealed?: string | null;
  previousSecretExpiresAt?: string | null;
}

export interface EndpointState {
  url: string | null;
  hasSecret: boolean;
  brandId: string;
  version: number;
}

interface Row {
  url: string | null;
  has_secret: boolean;
  brand_id: string;
  version: number;
}
const state = (r: Row): EndpointState => ({ url: r.url, hasSecret: r.has_secret, brandId: r.brand_id, version: r.version });

/** Applies a change; returns the endpoint before and after it (equal when it was not newer). */
export async function applyEndpointChange(tx: SqlRunner, c: EndpointChange): Promise<{ before: EndpointState | null; after: EndpointState }> {
  const [prior] = await tx.query<Row>(
    `select url, secret_sealed is not null as has_secret, brand_id, version from webhooks.endpoints
     where operator_id = ? and environment = ? for update`,
    [c.operatorId, c.environment],
  );
  const unversioned = c.version === undefined;
  const newer = unversioned || !prior || c.version! > prior.version;
  if (prior && !newer) return { before: state(prior), after: state(prior) };
  const setUrl = c.url !== undefined;
  const setSecret = c.secretSealed !== undefined;
  const setPrevious = c.previousSecretSealed !== undefined;
  const previousSealed = c.previousSecretSealed && c.previousSecretExpiresAt ? c.previousSecretSealed : null;
  const previousUntil = previousSealed ? c.previousSecretExpiresAt : null;
  const [row] = await tx.query<Row>(
    `insert into webhooks.endpoints (operator_id, environment, brand_id, url, secret_sealed, version, previous_secret_sealed, previous_secret_expires_at)
     values (?, ?, ?, ?, ?, ?, ?, ?::timestamptz)
     on conflict (operator_id, environment) do update set
       brand_id = excluded.brand_id,
       url = case when ?::boolean then excluded.url else endpoints.url end,
       secret_sealed = case when ?::boolean then excluded.secret_sealed else endpoints.secret_sealed end,
       previous_secret_sealed = case when ?::boolean then excluded.previous_secret_sealed else endpoints.previous_secret_sealed end,
       previous_secret_expires_at = case when ?::boolean then excluded.previous_secret_expires_at else endpoints.previous_secret_expires_at end,
       version = greatest(endpoints.version, excluded.version),
       updated_at = now()
     -- With no row to lock above, a concurrent change may have inserted one meanwhile: an older
     -- change must not overwrite it (the URL of the newer one would be lost for good).
     where ?::boolean or excluded.version > endpoints.version
     returning url, secret_sealed is not null as has_secret, brand_id, version`,
    [
      c.operatorId,
      c.environment,
      c.brandId,
      setUrl ? (c.url ?? null) : null,
      c.secretSealed ?? null,
      c.version ?? 0,
      previousSealed,
      previousUntil,
      setUrl,
      setSecret,
      setPrevious,
      setPrevious,
      unversioned,
    ],
  );
  if (row) return { before: prior ? state(prior) : null, after: state(row) };
  // A newer change got there first: it stands.
  const [current] = await tx.query<Row>(
    `select url, secret_sealed is not null as has_secret, brand_id, version from webhooks.endpoints where operator_id = ? and environment = ?`,
    [c.operatorId, c.environment],
  );
  return { before: state(current!), after: state(current!) };
}

export interface SigningEndpoint {
  url: string | null;
  secret_sealed: string | null;
  /** The secret before a rotation, while it still signs. */
  previous_secret_sealed: string | null;
}

/** The brand's endpoint for the environment with the secrets that sign for it now (a test attempt). */
export async function signingEndpoint(
  sql: SqlRunner,
  scope: { operatorId: string; environment: Environment; brandId: string },
): Promise<SigningEndpoint | undefined> {
  const [endpoint] = await sql.query<SigningEndpoint>(
    `select url, secret_sealed, case when previous_secret_expires_at > now() then previous_secret_sealed end as previous_secret_sealed
       from webhooks.endpoints where operator_id = ? and environment = ? and brand_id = ?`,
    [scope.operatorId, scope.environment, scope.brandId],
  );
  return endpoint;
}

/** Whether the operator has a URL for the environment (on any of its brands' endpoints: the first found). */
export async function endpointUrl(sql: SqlRunner, operatorId: string, environment: Environment): Promise<string | null> {
  const [endpoint] = await sql.query<{ url: string | null }>('select url from webhooks.endpoints where operator_id = ? and environment = ?', [
    operatorId,
    environment,
  ]);
  return endpoint?.url ?? null;
}
