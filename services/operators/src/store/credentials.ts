// The gateway's reads on a miss of its caches, in the kit's SQL (one statement each, on the
// request path of every first call of a key): a credential by its key's hash, an operator's status.
import type { Environment } from '@bo/contracts';
import { isoTime, type SqlRunner } from '@bo/service-kit';

type OperatorStatus = 'active' | 'suspended';

export interface CredentialRecord {
  operatorId: string;
  operatorName: string;
  operatorStatus: OperatorStatus;
  environment: Environment;
  brand: { id: string; name: string; currency: string };
  rateLimitPerMinute: number;
  allowedIps: string[];
  secretSealed: string;
  expiresAt: string | null;
}

interface CredentialRow {
  operator_id: string;
  operator_name: string;
  status: OperatorStatus;
  rate_limit_per_minute: number;
  allowed_ips: string[];
  brand_id: string;
  brand_name: string;
  currency: string;
  environment: Environment;
  secret_sealed: string;
  expires_at: string | null;
}

/** The live (unrevoked) credential whose key hashes to `keyHash`, with its operator and brand. */
export async function credentialByKeyHash(sql: SqlRunner, keyHash: string): Promise<CredentialRecord | undefined> {
  const [r] = await sql.query<CredentialRow>(
    `select o.id operator_id, o.name operator_name, o.status, o.rate_limit_per_minute, o.allowed_ips,
            b.id brand_id, b.name brand_name, b.currency, c.environment, c.secret_sealed, c.expires_at
       from operators.credentials c
       join operators.operators o on o.id = c.operator_id
       join operators.brands b on b.id = c.brand_id
      where c.key_hash = ? and c.revoked_at is null`,
    [keyHash],
  );
  return (
    r && {
      operatorId: r.operator_id,
      operatorName: r.operator_name,
      operatorStatus: r.status,
      environment: r.environment,
      brand: { id: r.brand_id, name: r.brand_name, currency: r.currency },
      rateLimitPerMinute: r.rate_limit_per_minute,
      allowedIps: r.allowed_ips,
      secretSealed: r.secret_sealed,
      expiresAt: r.expires_at === null ? null : isoTime(r.expires_at),
    }
  );
}

/** The operator's status, or undefined for an unknown id. */
export async function operatorStatus(sql: SqlRunner, operatorId: string): Promise<OperatorStatus | undefined> {
  const [row] = await sql.query<{ status: OperatorStatus }>('select status from operators.operators where id = ?', [operatorId]);
  return row?.status;
}
