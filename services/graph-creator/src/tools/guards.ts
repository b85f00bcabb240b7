/**
 * The rails' shared state (ARCHITECTURE §12): per-org policies, rate limits and circuits live in
 * Postgres (migration 0010) so every worker sees the same and restarts lose nothing. Each port has
 * an in-memory twin for unit tests (one process only).
 */
import type { Pool } from '@hireloop/platform';
import { type OrgPolicy, OrgPolicy as OrgPolicySchema, validate } from '@hireloop/schemas';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { CatalogChanges, freshPerOrg } from '../connect-hub/changes';
import type { ConnectHubClient } from '../connect-hub/client';
import { type CircuitRow, type CircuitState, circuitAfter, closedCircuit, parseRate } from './rails';

// ---- scopes: the providers an org has connected ----

export interface ScopeSource {
  /** the org's connected provider ids, or 'all' where nothing is checked (tests, the static catalog) */
  connected(orgId: string): Promise<ReadonlySet<string> | 'all'>;
}

export const allScopes: ScopeSource = { connected: async () => 'all' };

export const fixedScopes = (byOrg: Record<string, readonly string[]>): ScopeSource => ({
  connected: async (orgId) => new Set(byOrg[orgId] ?? []),
});

/** The oldest view of an org's connections the scope rail grants from: a revoked provider is refused within it. */
export const SCOPES_MAX_AGE_MS = 5_000;

/**
 * The hub's catalog view of the org: a provider is granted when its capabilities are `connected`.
 * Read again (the client revalidates by ETag) once the org's connections changed (`CatalogChanges`), and
 * at least every `maxAgeMs` even when no change was seen: a grant is a security rail, so a change the
 * worker missed holds for seconds, not for the catalog's TTL.
 */
export function hubScopes(
  hub: Pick<ConnectHubClient, 'capabilities'>,
  changes = new CatalogChanges(60_000),
  maxAgeMs = SCOPES_MAX_AGE_MS,
): ScopeSource {
  return {
    connected: freshPerOrg(
      changes,
      async (orgId): Promise<ReadonlySet<string>> =>
        new Set((await hub.capabilities(orgId)).filter((c) => c.connected).map((c) => c.providerId)),
      { maxAgeMs },
    ),
  };
}

// ---- policies ----

/**
 * The org's policy as the registry reads it before a call. In Postgres it is the event store's
 * `org_policies` projection of the org's `PolicyChanged` facts: the worker only reads it.
 */
export interface PolicyStore {
  get(orgId: string): Promise<OrgPolicy>;
}

export function postgresPolicies(pool: Pool): PolicyStore {
  return {
    get: async (orgId) => {
      const { rows } = await pool.query<{ policy: unknown }>('SELECT policy FROM org_policies WHERE org_id = $1', [orgId]);
      if (!rows[0]) return {};
      // a row written by an older shape is read as no rules rather than crashing every run of the org
      const checked = validate(OrgPolicySchema, rows[0].policy);
      return checked.ok ? checked.value : {};
    },
  };
}

/** The in-memory twin (unit tests): `set` stands for the fact the event store would fold. */
export function memoryPolicies(initial: Record<string, OrgPolicy> = {}): PolicyStore & {
  set(orgId: string, policy: OrgPolicy): Promise<void>;
} {
  const held = new Map(Object.entries(initial));
  return {
    get: async (orgId) => held.get(orgId) ?? {},
    set: async (orgId, policy) => {
      held.set(orgId, policy);
    },
  };
}

// ---- rate limits (rate-limiter-flexible) ----

export interface RateLimits {
  /** takes one point of `rate` for `key`; when none is left, how long until the next */
  take(key: string, rate: string): Promise<{ ok: true } | { ok: false; msBeforeNext: number }>;
}

function limits(make: (points: number, duration: number, keyPrefix: string) => RateLimiterAbstract): RateLimits {
  const byRate = new Map<string, RateLimiterAbstract>();
  return {
    take: async (key, rate) => {
      let limiter = byRate.get(rate);
      if (!limiter) {
        const { points, durationSeconds } = parseRate(rate);
        limiter = make(points, durationSeconds, `tool_${rate.replace('/', '_')}`);
        byRate.set(rate, limiter);
      }
      try {
        await limiter.consume(key, 1);
        return { ok: true };
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return { ok: false, msBeforeNext: rejection.msBeforeNext };
        throw rejection;
      }
    },
  };
}

/** Counters in `tool_rate_limits` (migration 0010), atomic upserts by rate-limiter-flexible, on the worker's pool. */
export const postgresRateLimits = (pool: Pool): RateLimits =>
  limits(
    (points, duration, keyPrefix) =>
      new RateLimiterPostgres({
        storeClient: pool,
        storeType: 'pool',
        tableName: 'tool_rate_limits',
        tableCreated: true,
        clearExpiredByTimeout: false,
        points,
        duration,
        keyPrefix,
      }),
  );

export const memoryRateLimits = (): RateLimits =>
  limits((points, duration, keyPrefix) => new RateLimiterMemory({ points, duration, keyPrefix }));

// ---- circuits ----

export interface CircuitStore {
  read(orgId: string, toolId: string): Promise<CircuitRow>;
  /** claims the one probe of a circuit whose cool-down is over; false when another worker has it */
  claimProbe(orgId: string, toolId: string, seen: CircuitRow, now: Date): Promise<boolean>;
  /** folds a call's outcome into the row, atomically */
  report(orgId: string, toolId: string, ok: boolean, threshold: number, now: Date): Promise<CircuitRow>;
}

interface CircuitDbRow {
  state: CircuitState;
  failures: number;
  since: Date | null;
}

export function postgresCircuits(pool: Pool): CircuitStore {
  return {
    read: async (orgId, toolId) => {
      const { rows } = await pool.query<CircuitDbRow>(
        'SELECT state, failures, since FROM tool_circuits WHERE org_id = $1 AND tool_id = $2',
        [orgId, toolId],
      );
      return rows[0] ?? closedCircuit;
    },
    claimProbe: async (orgId, toolId, seen, now) => {
      // compare-and-set on the row as read: of two workers past the cool-down, one probes
      const { rowCount } = await pool.query(
        `UPDATE tool_circuits SET state = 'half_open', since = $3
          WHERE org_id = $1 AND tool_id = $2 AND state = $4 AND since IS NOT DISTINCT FROM $5`,
        [orgId, toolId, now, seen.state, seen.since],
      );
      return rowCount === 1;
    },
    report: async (orgId, toolId, ok, threshold, now) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(
          'INSERT INTO tool_circuits (org_id, tool_id, state, failures, since) VALUES ($1, $2, $3, 0, NULL) ON CONFLICT DO NOTHING',
          [orgId, toolId, 'closed'],
        );
        const { rows } = await client.query<CircuitDbRow>(
          'SELECT state, failures, since FROM tool_circuits WHERE org_id = $1 AND tool_id = $2 FOR UPDATE',
          [orgId, toolId],
        );
        const next = circuitAfter(rows[0] ?? closedCircuit, ok, threshold, now);
        await client.query('UPDATE tool_circuits SET state = $3, failures = $4, since = $5 WHERE org_id = $1 AND tool_id = $2', [
          orgId,
          toolId,
          next.state,
          next.failures,
          next.since,
        ]);
        await client.query('COMMIT');
        return next;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
  };
}

export function memoryCircuits(): CircuitStore {
  const rows = new Map<string, CircuitRow>();
  const keyOf = (orgId: string, toolId: string) => `${orgId}\u0000${toolId}`;
  return {
    read: async (orgId, toolId) => rows.get(keyOf(orgId, toolId)) ?? closedCircuit,
    claimProbe: async (orgId, toolId, seen, now) => {
      const row = rows.get(keyOf(orgId, toolId)) ?? closedCircuit;
      if (row.state !== seen.state || row.since?.getTime() !== seen.since?.getTime()) return false;
      rows.set(keyOf(orgId, toolId), { ...row, state: 'half_open', since: now });
      return true;
    },
    report: async (orgId, toolId, ok, threshold, now) => {
      const next = circuitAfter(rows.get(keyOf(orgId, toolId)) ?? closedCircuit, ok, threshold, now);
      rows.set(keyOf(orgId, toolId), next);
      return next;
    },
  };
}
