import { readFileSync } from 'node:fs';
import { builtInCatalog, DEV_ORG, devOrgConnections } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import {
  renderSchemasSeed,
  renderSeed,
  SEED_BEGIN,
  SEED_END,
  schemasMigrationPath,
  seedMigrationPath,
  spliceSeed,
} from '../src/seed';

describe('the seed of migration 0004', () => {
  it('is exactly what generate-seed writes from schemas/src/catalog.ts (run generate-seed when this fails)', () => {
    const migration = readFileSync(seedMigrationPath, 'utf8');
    const regenerated = spliceSeed(
      migration,
      renderSeed({ catalog: builtInCatalog, connections: { [DEV_ORG]: devOrgConnections } }),
    );
    expect(migration).toBe(regenerated);
  });

  it('inserts every provider, capability and trigger of the catalog and the dev org connections', () => {
    const seed = renderSeed({ catalog: builtInCatalog, connections: { [DEV_ORG]: devOrgConnections } });
    for (const item of [...builtInCatalog.providers, ...builtInCatalog.capabilities, ...builtInCatalog.triggers]) {
      expect(seed).toContain(`('${item.id}', `);
    }
    for (const provider of devOrgConnections) expect(seed).toContain(`('${DEV_ORG}', '${provider}')`);
  });

  it('escapes quotes in text and keeps JSON Schemas as jsonb literals', () => {
    const seed = renderSeed({
      catalog: {
        providers: [{ id: 'p', name: "O'Brien", description: 'say "hi"' }],
        capabilities: [
          {
            id: 'p.c',
            providerId: 'p',
            name: 'c',
            description: "it's",
            risk: 'low',
            inputSchema: {
              type: 'object',
              properties: { q: { type: 'string', description: 'a \'quoted\' "query"' } },
              required: [],
              additionalProperties: false,
            },
            outputSchema: { type: 'object', properties: {}, required: [], additionalProperties: false },
          },
        ],
        triggers: [],
      },
      connections: {},
    });
    expect(seed).toContain(`('p', 'O''Brien', 'say "hi"')`);
    expect(seed).toContain(
      `'{"type":"object","properties":{"q":{"type":"string","description":"a ''quoted'' \\"query\\""}},"required":[],"additionalProperties":false}'::jsonb`,
    );
    expect(seed).toContain('-- no triggers');
  });

  it('refuses starting connections to providers the catalog does not have', () => {
    expect(() => renderSeed({ catalog: builtInCatalog, connections: { acme: ['gmail', 'myspace'] } })).toThrow(/myspace/);
  });

  it('needs both markers in the migration', () => {
    expect(() => spliceSeed('-- Up Migration\nCREATE TABLE t ();\n', 'x')).toThrow(/no seed section/);
    expect(spliceSeed(`a\n${SEED_BEGIN}\nold\n${SEED_END}\nb`, 'new\n')).toBe(`a\n${SEED_BEGIN}\nnew\n${SEED_END}\nb`);
  });
});

describe('the seed of migration 0007', () => {
  it('is exactly what generate-seed writes from schemas/src/catalog.ts (run generate-seed when this fails)', () => {
    const migration = readFileSync(schemasMigrationPath, 'utf8');
    expect(migration).toBe(spliceSeed(migration, renderSchemasSeed(builtInCatalog)));
  });

  it('gives every capability an output schema and every trigger an event schema', () => {
    const seed = renderSchemasSeed(builtInCatalog);
    for (const c of builtInCatalog.capabilities)
      expect(seed).toContain(`('${c.id}', '${JSON.stringify(c.outputSchema)}'::jsonb)`);
    for (const t of builtInCatalog.triggers) expect(seed).toContain(`('${t.id}', '${JSON.stringify(t.eventSchema)}'::jsonb)`);
  });
});
