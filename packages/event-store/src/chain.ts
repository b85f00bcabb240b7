import * as crypto from 'node:crypto';
import { canonicalJson } from '@hireloop/fact-stream';
import type { PoolClient } from '@hireloop/platform';
import type { AnyFact } from '@hireloop/schemas';

/**
 * The tamper-evident hash chain of `facts` (docs/decisions.md, "The hash chain"):
 * `hash = sha256(prev_hash + canonical JSON of the fact)`, hex, with `prev_hash` the hash of the
 * previous fact of the same chain ('' before the first). A fact's chain is its execution; a fact
 * with no execution chains per conversation within its org, and one with neither per org.
 */

/** Canonical JSON (fact-stream): object keys sorted at every depth, no whitespace — what the chain hashes. */
export { canonicalJson };

const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

export const chainHash = (prevHash: string | null, canonical: string): string =>
  oneShot
    ? oneShot('sha256', (prevHash ?? '') + canonical, 'hex') // Node >= 20.12: no Hash object per fact
    : crypto
        .createHash('sha256')
        .update(prevHash ?? '')
        .update(canonical)
        .digest('hex');

/** The execution a fact belongs to: its body's `executionId`, else its correlation's. */
export function executionIdOf(fact: AnyFact): string | null {
  return 'executionId' in fact ? fact.executionId : (fact.correlation.executionId ?? null);
}

/** The conversation a fact belongs to: a UIMessage's own, else its correlation's. */
export function conversationIdOf(fact: AnyFact): string | null {
  return fact.type === 'UIMessage' ? fact.conversationId : (fact.correlation.conversationId ?? null);
}

/** The same expression as the generated column `facts.chain_key` (migration 0002). */
export function chainKey(orgId: string, executionId: string | null, conversationId: string | null): string {
  if (executionId !== null) return `execution/${executionId}`;
  if (conversationId !== null) return `conversation/${orgId}/${conversationId}`;
  return `org/${orgId}`;
}

export const chainKeyOf = (fact: AnyFact): string => chainKey(fact.orgId, executionIdOf(fact), conversationIdOf(fact));

// ---------------------------------------------------------------------------------------------
// Locks. Every transaction that appends to a chain or changes a projection row first takes the
// transaction-scoped advisory locks of its keys, in ascending order (no deadlock), so that several
// projector instances serialise per key: a chain's seq order is its hash order, and a projection
// row is folded from every earlier fact of its key. Keys are hashed into a bounded number of
// buckets so that a batch of thousands of executions takes at most LOCK_BUCKETS locks (Postgres'
// lock table is small: 64 × max_connections by default). Two keys sharing a bucket only serialise.

/** The first key of the two-key advisory lock form, whose key space is apart from the one-key form's. */
export const LOCK_CLASS = 0x65766e74; // 'evnt'
export const LOCK_BUCKETS = 256;

/** FNV-1a, 32 bits, of the key; its bucket. */
export function lockBucket(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % LOCK_BUCKETS;
}

/** Every bucket: nothing else appends a fact or changes a projection until the transaction ends. */
export const lockEverything = async (client: PoolClient): Promise<void> => {
  await client.query(bucketsStatement(Array.from({ length: LOCK_BUCKETS }, (_, i) => i)));
};

/**
 * The statement taking the advisory locks of these keys, or null when there are none. Its only
 * values are bucket numbers, written out: it needs no parameter, so it can share a round trip with
 * the `BEGIN` before it (the projector's transactions do).
 */
export function lockStatement(keys: Iterable<string>): string | null {
  const buckets = [...new Set([...keys].map(lockBucket))].sort((a, b) => a - b);
  return buckets.length === 0 ? null : bucketsStatement(buckets);
}

// unnest keeps the array's order, so the locks are taken in ascending order
const bucketsStatement = (sorted: readonly number[]): string =>
  `SELECT count(pg_advisory_xact_lock(${LOCK_CLASS}, b)) FROM unnest('{${sorted.join(',')}}'::int[]) AS b`;
