/**
 * Writes the seed section of infra/postgres/migrations/0004_connect_hub.sql from schemas/src/catalog.ts.
 *   pnpm --filter @hireloop/connect-hub generate-seed           rewrite the section
 *   pnpm --filter @hireloop/connect-hub generate-seed --check   exit 1 when the file is out of date
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { builtInCatalog, DEV_ORG, devOrgConnections } from '@hireloop/schemas';
import { renderSeed, seedMigrationPath, spliceSeed } from './seed';

const check = process.argv.includes('--check');
const current = readFileSync(seedMigrationPath, 'utf8');
const next = spliceSeed(current, renderSeed({ catalog: builtInCatalog, connections: { [DEV_ORG]: devOrgConnections } }));

if (next === current) {
  console.log(`${seedMigrationPath}: seed up to date`);
} else if (check) {
  console.error(`${seedMigrationPath}: seed out of date with schemas/src/catalog.ts: run generate-seed`);
  process.exitCode = 1;
} else {
  writeFileSync(seedMigrationPath, next);
  console.log(`${seedMigrationPath}: seed written`);
}
