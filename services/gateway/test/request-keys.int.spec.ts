/** Keys of one request (Idempotency-Keys, webhook delivery ids) on real Postgres: claimed, given back, forgotten. */
import { createPool } from '@hireloop/platform';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { claimRequestKey, releaseRequestKey, sweepRequestKeys } from '../src/commands/request-keys';
import { uid } from './fixtures';

describe('the keys of requests', () => {
  const pool = createPool(inject('databaseUrl'));
  afterAll(() => pool.end());
  const claim = () => ({ orgId: uid('org'), scope: 'hook:emp-1/wf-1', key: uid('delivery') });

  it('given a key claimed by a request whose publish failed, when given back, then a retry with another body is taken', async () => {
    const key = claim();
    expect(await claimRequestKey(pool, { ...key, request: { a: 1 }, field: 'x-hireloop-delivery' })).toEqual({ fresh: true });
    // the same request again: not fresh (it may not give the key back), the same answer
    expect(await claimRequestKey(pool, { ...key, request: { a: 1 }, field: 'x-hireloop-delivery' })).toEqual({ fresh: false });
    await expect(claimRequestKey(pool, { ...key, request: { a: 2 }, field: 'x-hireloop-delivery' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { field: 'x-hireloop-delivery' },
    });
    await releaseRequestKey(pool, key);
    expect(await claimRequestKey(pool, { ...key, request: { a: 2 }, field: 'x-hireloop-delivery' })).toEqual({ fresh: true });
  });

  it('given keys older than a week, when swept, then they are forgotten and newer ones kept', async () => {
    const old = claim();
    const recent = claim();
    await claimRequestKey(pool, { ...old, request: {}, field: 'idempotency-key' });
    await claimRequestKey(pool, { ...recent, request: {}, field: 'idempotency-key' });
    await pool.query(`UPDATE idempotency_keys SET created_at = now() - interval '8 days' WHERE org_id = $1`, [old.orgId]);
    expect(await sweepRequestKeys(pool)).toBeGreaterThanOrEqual(1);
    const left = await pool.query('SELECT org_id FROM idempotency_keys WHERE org_id = ANY($1)', [[old.orgId, recent.orgId]]);
    expect(left.rows.map((r) => r.org_id)).toEqual([recent.orgId]);
  });
});
