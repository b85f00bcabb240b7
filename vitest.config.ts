import { defineConfig } from 'vitest/config';

const infra = { globalSetup: ['test/global-setup.ts'], hookTimeout: 120_000, testTimeout: 120_000 };

export default defineConfig({
  test: {
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['**/*.unit.spec.ts'], exclude: ['**/node_modules/**'] } },
      { extends: true, test: { name: 'int', include: ['**/*.int.spec.ts'], exclude: ['**/node_modules/**'], ...infra } },
      {
        extends: true,
        test: { name: 'e2e', include: ['**/*.e2e.spec.ts'], exclude: ['**/node_modules/**'], ...infra, fileParallelism: false },
      },
    ],
  },
});
