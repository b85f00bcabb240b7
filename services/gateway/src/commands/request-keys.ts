/**
 * Keys of one request (ARCHITECTURE §5's exactly-once at the edge): an `Idempotency-Key` of `POST /v1/triggers` and a
 * webhook's `x-hireloop-delivery` name one request each, remembered in `idempotency_keys` with a hash of the request.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '@hireloop/fact-stream';
import { HireloopError, type Principal } from '@hireloop/platform';
import type { CreateTriggerBody } from '@hireloop/schemas';
import type { CommandDeps } from './deps';

/**
 * Claims a key of one request, within an org and a scope (a user's Idempotency-Keys, a workflow's webhook
 * deliveries): the first use records a hash of the request; the same key sent again with the same request goes on
 * (and answers the same ids), with another request it is refused — a key names one request, and the second would
 * otherwise be dropped in silence. `field` is the header the refusal names.
 */
export async function claimRequestKey(
  pool: CommandDeps['pool'],
  claim: { orgId: string; scope: string; key: string; request: unknown; field: string },
): Promise<{ fresh: boolean }> {
  const hash = createHash('sha256').update(canonicalJson(claim.request)).digest('hex');
  const args = [claim.orgId, claim.scope, claim.key];
  const { rows } = await pool.query<{ request_hash: string; fresh: boolean }>(
    `WITH claimed AS (
       INSERT INTO idempotency_keys (org_id, user_id, key, request_hash) VALUES ($1, $2, $3, $4)
       ON CONFLICT (org_id, user_id, key) DO NOTHING RETURNING request_hash)
     SELECT request_hash, true AS fresh FROM claimed
     UNION ALL SELECT request_hash, false AS fresh FROM idempotency_keys WHERE org_id = $1 AND user_id = $2 AND key = $3
     LIMIT 1`,
    [...args, hash],
  );
  // (a claim made at the same moment by another request is not in this statement's snapshot: read it again)
  const found =
    rows[0] ??
    (
      await pool.query<{ request_hash: string; fresh: boolean }>(
        'SELECT request_hash, false AS fresh FROM idempotency_keys WHERE org_id = $1 AND user_id = $2 AND key = $3',
        args,
      )
    ).rows[0];
  if (found && found.request_hash !== hash)
    throw new HireloopError(
      'VALIDATION_FAILED',
      `${claim.field}: ${claim.key} was used for a different request; send a new request with a new ${claim.field}`,
      { field: claim.field },
    );
  return { fresh: found?.fresh === true };
}

/** Gives back a key this request claimed, when what it was for could not be done (the publish failed). */
export async function releaseRequestKey(
  pool: CommandDeps['pool'],
  claim: { orgId: string; scope: string; key: string },
): Promise<void> {
  await pool.query('DELETE FROM idempotency_keys WHERE org_id = $1 AND user_id = $2 AND key = $3', [
    claim.orgId,
    claim.scope,
    claim.key,
  ]);
}

/** How long a request's key is remembered: a retry comes within minutes, a key sent again after that starts anew. */
export const REQUEST_KEY_DAYS = 7;

/** Forgets the keys claimed more than `days` ago; how many. */
export async function sweepRequestKeys(pool: CommandDeps['pool'], days = REQUEST_KEY_DAYS): Promise<number> {
  const { rowCount } = await pool.query(`DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(days => $1)`, [
    days,
  ]);
  return rowCount ?? 0;
}

/** An Idempotency-Key of POST /v1/triggers, claimed for this request (see `claimRequestKey`). */
export const claimIdempotencyKey = (
  pool: CommandDeps['pool'],
  principal: Principal,
  key: string,
  body: CreateTriggerBody,
): Promise<{ fresh: boolean }> =>
  claimRequestKey(pool, { orgId: principal.orgId, scope: principal.userId, key, request: body, field: 'idempotency-key' });
