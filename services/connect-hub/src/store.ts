/** The hub's Postgres: the catalog (cached in memory per catalog version) and each org's connections. */
import { type Pool, statementNames, withTransaction } from '@hireloop/platform';
import type { BuiltInCatalog } from '@hireloop/schemas';
import { connectionSet } from './decide';

export interface StoredCatalog extends BuiltInCatalog {
  /** bumped by every statement that changes the catalog tables (migration 0004) */
  version: number;
}

/** One consistent read of what an org's view depends on. */
export interface OrgState {
  catalogVersion: number;
  /** 0 for an org that has never had a connection */
  orgVersion: number;
  connected: string[];
}

export interface OrgConnections {
  providers: string[];
  version: number;
}

export interface ConnectHubStore {
  orgState(orgId: string): Promise<OrgState>;
  /** the catalog at `version` or newer */
  catalog(version: number): Promise<StoredCatalog>;
  connections(orgId: string): Promise<OrgConnections>;
  /** replaces the org's set; throws VALIDATION_FAILED naming unknown ids; bumps the version only when the set changes */
  replaceConnections(orgId: string, providers: readonly string[]): Promise<OrgConnections>;
}

// bigint columns arrive as strings; versions stay far below 2^53.
const int = (value: string | number | null | undefined): number => Number(value ?? 0);

export function postgresStore(pool: Pool): ConnectHubStore {
  let cached: StoredCatalog | undefined;
  let loading: Promise<StoredCatalog> | undefined;

  // One statement, so the version and the rows come from one snapshot.
  const load = async (): Promise<StoredCatalog> => {
    const { rows } = await pool.query<{
      version: string;
      providers: BuiltInCatalog['providers'];
      capabilities: BuiltInCatalog['capabilities'];
      triggers: BuiltInCatalog['triggers'];
    }>(`
      SELECT (SELECT version FROM catalog_version) AS version,
        COALESCE((SELECT json_agg(json_build_object('id', id, 'name', name, 'description', description) ORDER BY id) FROM providers), '[]') AS providers,
        COALESCE((SELECT json_agg(json_build_object('id', id, 'providerId', provider_id, 'name', name, 'description', description,
                    'risk', risk, 'inputSchema', input_schema, 'outputSchema', output_schema, 'vocabulary', vocabulary)
                    ORDER BY id) FROM capabilities), '[]') AS capabilities,
        COALESCE((SELECT json_agg(json_build_object('id', id, 'providerId', provider_id, 'name', name, 'description', description,
                    'paramsSchema', params_schema, 'eventSchema', event_schema, 'vocabulary', vocabulary)
                    ORDER BY id) FROM triggers), '[]') AS triggers`);
    const row = rows[0]!;
    // an entry without vocabulary has none (read off its name and description), not a null one
    const tidy = <T extends { vocabulary?: unknown }>(items: T[]): T[] =>
      items.map(({ vocabulary, ...rest }) => (vocabulary ? { ...rest, vocabulary } : rest) as T);
    return {
      version: int(row.version),
      providers: row.providers,
      capabilities: tidy(row.capabilities),
      triggers: tidy(row.triggers),
    };
  };

  return {
    async orgState(orgId) {
      // every view request asks this first: prepared once per connection
      const { rows } = await pool.query<{ catalog_version: string; org_version: string; connected: string[] }>(
        statementNames.query(
          `SELECT (SELECT version FROM catalog_version) AS catalog_version,
                COALESCE((SELECT version FROM org_connection_versions WHERE org_id = $1), 0) AS org_version,
                ARRAY(SELECT provider_id FROM org_connections WHERE org_id = $1 ORDER BY provider_id) AS connected`,
          [orgId],
        ),
      );
      const row = rows[0]!;
      return { catalogVersion: int(row.catalog_version), orgVersion: int(row.org_version), connected: row.connected };
    },

    async catalog(version) {
      if (cached && cached.version >= version) return cached;
      // Concurrent requests after a catalog change share one load.
      loading ??= load().finally(() => {
        loading = undefined;
      });
      const fresh = await loading;
      if (!cached || fresh.version > cached.version) cached = fresh;
      return cached;
    },

    async connections(orgId) {
      const { rows } = await pool.query<{ version: string; providers: string[] }>(
        `SELECT COALESCE((SELECT version FROM org_connection_versions WHERE org_id = $1), 0) AS version,
                ARRAY(SELECT provider_id FROM org_connections WHERE org_id = $1 ORDER BY provider_id) AS providers`,
        [orgId],
      );
      const row = rows[0]!;
      return { providers: row.providers, version: int(row.version) };
    },

    replaceConnections(orgId, requested) {
      return withTransaction(pool, async (client) => {
        // The version row is the org's lock: concurrent PUTs for one org apply one after the other.
        await client.query(
          'INSERT INTO org_connection_versions (org_id, version) VALUES ($1, 0) ON CONFLICT (org_id) DO NOTHING',
          [orgId],
        );
        const locked = await client.query<{ version: string }>(
          'SELECT version FROM org_connection_versions WHERE org_id = $1 FOR UPDATE',
          [orgId],
        );
        const version = int(locked.rows[0]?.version);
        const known = await client.query<{ id: string }>('SELECT id FROM providers');
        const next = connectionSet(requested, new Set(known.rows.map((r) => r.id)));
        const current = await client.query<{ provider_id: string }>('SELECT provider_id FROM org_connections WHERE org_id = $1', [
          orgId,
        ]);
        const had = new Set(current.rows.map((r) => r.provider_id));
        const removed = [...had].filter((id) => !next.includes(id));
        const added = next.filter((id) => !had.has(id));
        if (removed.length === 0 && added.length === 0) return { providers: next, version };

        // Providers kept keep their connected_at: only the difference is written.
        await client.query('DELETE FROM org_connections WHERE org_id = $1 AND provider_id = ANY($2::text[])', [orgId, removed]);
        await client.query('INSERT INTO org_connections (org_id, provider_id) SELECT $1, unnest($2::text[])', [orgId, added]);
        const bumped = await client.query<{ version: string }>(
          'UPDATE org_connection_versions SET version = version + 1 WHERE org_id = $1 RETURNING version',
          [orgId],
        );
        return { providers: next, version: int(bumped.rows[0]?.version) };
      });
    },
  };
}
