/**
 * Writes the seed sections of infra/postgres/migrations/0004_connect_hub.sql (the catalog) and
 * 0007_catalog_schemas.sql (its output and event schemas) from schemas/src/catalog.ts.
 *   pnpm --filter @hireloop/connect-hub generate-seed           rewrite the sections
 *   pnpm --filter @hireloop/connect-hub generate-seed --check   exit 1 when a file is out of date
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { builtInCatalog, DEV_ORG, devOrgConnections } from '@hireloop/schemas';
import {
  renderSchemasSeed,
  renderSeed,
  renderVocabularySeed,
  schemasMigrationPath,
  seedMigrationPath,
  spliceSeed,
  vocabularyMigrationPath,
} from './seed';

const check = process.argv.includes('--check');
const files: [string, string][] = [
  [seedMigrationPath, renderSeed({ catalog: builtInCatalog, connections: { [DEV_ORG]: devOrgConnections } })],
  [schemasMigrationPath, renderSchemasSeed(builtInCatalog)],
  [vocabularyMigrationPath, renderVocabularySeed(builtInCatalog)],
];

for (const [path, seed] of files) {
  const current = readFileSync(path, 'utf8');
  const next = spliceSeed(current, seed);
  if (next === current) {
    console.log(`${path}: seed up to date`);
  } else if (check) {
    console.error(`${path}: seed out of date with schemas/src/catalog.ts: run generate-seed`);
    process.exitCode = 1;
  } else {
    writeFileSync(path, next);
    console.log(`${path}: seed written`);
  }
}
