/**
 * The seed section of migration 0004, rendered from the typed catalog (`schemas/src/catalog.ts`), so
 * that the SQL and the catalog cannot drift: `generate-seed.ts` writes it, a unit test re-renders it.
 */
import { fileURLToPath } from 'node:url';
import type { BuiltInCatalog } from '@hireloop/schemas';

export const seedMigrationPath = fileURLToPath(
  new URL('../../../infra/postgres/migrations/0004_connect_hub.sql', import.meta.url),
);

/** Migration 0011 adds each entry's vocabulary; its seed section fills it for the built-in catalog. */
export const vocabularyMigrationPath = fileURLToPath(
  new URL('../../../infra/postgres/migrations/0012_catalog_vocabulary.sql', import.meta.url),
);

/** Migration 0007 adds the output and event schemas; its seed section fills them for the built-in catalog. */
export const schemasMigrationPath = fileURLToPath(
  new URL('../../../infra/postgres/migrations/0007_catalog_schemas.sql', import.meta.url),
);

export const SEED_BEGIN =
  '-- BEGIN GENERATED SEED: written by services/connect-hub/src/generate-seed.ts from schemas/src/catalog.ts; do not edit by hand.';
export const SEED_END = '-- END GENERATED SEED';

export interface SeedInput {
  catalog: BuiltInCatalog;
  /** orgs that start with connections, and their provider ids */
  connections: Readonly<Record<string, readonly string[]>>;
}

/** A standard SQL string literal (standard_conforming_strings is on: only quotes need doubling). */
const literal = (value: string): string => `'${value.replaceAll("'", "''")}'`;
const jsonb = (value: unknown): string => `${literal(JSON.stringify(value))}::jsonb`;

function insert(table: string, columns: readonly string[], rows: readonly string[][]): string {
  if (rows.length === 0) return `-- no ${table}\n`;
  const values = rows.map((row) => `  (${row.join(', ')})`).join(',\n');
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES\n${values};\n`;
}

/** The seed: INSERTs of the catalog and the starting connections, in a stable order. */
export function renderSeed({ catalog, connections }: SeedInput): string {
  const providerIds = new Set(catalog.providers.map((p) => p.id));
  for (const [orgId, providers] of Object.entries(connections)) {
    const unknown = providers.filter((id) => !providerIds.has(id));
    if (unknown.length > 0) throw new Error(`org ${orgId} is connected to unknown providers: ${unknown.join(', ')}`);
  }
  const orgs = Object.keys(connections).sort();
  return [
    insert(
      'providers',
      ['id', 'name', 'description'],
      catalog.providers.map((p) => [literal(p.id), literal(p.name), literal(p.description)]),
    ),
    insert(
      'capabilities',
      ['id', 'provider_id', 'name', 'description', 'risk', 'input_schema'],
      catalog.capabilities.map((c) => [
        literal(c.id),
        literal(c.providerId),
        literal(c.name),
        literal(c.description),
        literal(c.risk),
        jsonb(c.inputSchema),
      ]),
    ),
    insert(
      'triggers',
      ['id', 'provider_id', 'name', 'description', 'params_schema'],
      catalog.triggers.map((t) => [
        literal(t.id),
        literal(t.providerId),
        literal(t.name),
        literal(t.description),
        jsonb(t.paramsSchema),
      ]),
    ),
    insert(
      'org_connections',
      ['org_id', 'provider_id'],
      orgs.flatMap((org) => [...new Set(connections[org])].sort().map((provider) => [literal(org), literal(provider)])),
    ),
    insert(
      'org_connection_versions',
      ['org_id', 'version'],
      orgs.map((org) => [literal(org), '1']),
    ),
  ].join('\n');
}

/** The migration text with its seed section replaced by `seed`; fails when the markers are missing. */
export function spliceSeed(migration: string, seed: string): string {
  const begin = migration.indexOf(SEED_BEGIN);
  const end = migration.indexOf(SEED_END);
  if (begin < 0 || end < begin)
    throw new Error(`the migration has no seed section: put "${SEED_BEGIN}" and "${SEED_END}" lines in it`);
  return `${migration.slice(0, begin)}${SEED_BEGIN}\n${seed}${migration.slice(end)}`;
}

/** The seed of migration 0007: every built-in capability's output schema and trigger's event schema. */
export function renderSchemasSeed(catalog: BuiltInCatalog): string {
  const update = (table: string, column: string, rows: readonly (readonly [string, unknown])[]): string =>
    rows.length === 0
      ? `-- no ${table}\n`
      : `UPDATE ${table} AS t SET ${column} = v.schema FROM (VALUES\n${rows
          .map(([id, schema]) => `  (${literal(id)}, ${jsonb(schema)})`)
          .join(',\n')}\n) AS v (id, schema) WHERE t.id = v.id;\n`;
  return [
    update(
      'capabilities',
      'output_schema',
      catalog.capabilities.map((c) => [c.id, c.outputSchema] as const),
    ),
    update(
      'triggers',
      'event_schema',
      catalog.triggers.map((t) => [t.id, t.eventSchema] as const),
    ),
  ].join('\n');
}

/** The seed section of migration 0012: the vocabulary of each built-in capability and trigger that has one. */
export function renderVocabularySeed(catalog: BuiltInCatalog): string {
  const update = (table: string, rows: readonly (readonly [string, unknown])[]): string =>
    rows.length === 0
      ? `-- no ${table} vocabulary\n`
      : `UPDATE ${table} AS t SET vocabulary = v.vocabulary FROM (VALUES\n${rows
          .map(([id, vocabulary]) => `  (${literal(id)}, ${jsonb(vocabulary)})`)
          .join(',\n')}\n) AS v (id, vocabulary) WHERE t.id = v.id;\n`;
  const rows = (items: readonly { id: string; vocabulary?: unknown }[]) =>
    items.flatMap((i) => (i.vocabulary ? [[i.id, i.vocabulary] as const] : []));
  return [update('capabilities', rows(catalog.capabilities)), update('triggers', rows(catalog.triggers))].join('\n');
}
