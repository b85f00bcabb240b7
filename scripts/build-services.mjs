#!/usr/bin/env node
/**
 * Compiles each service's TypeScript, with the workspace's own packages (`@hireloop/*`, `schemas/`),
 * into one ES module per service, `services/<name>/dist/main.js` (ignored by git), so that `make up`,
 * the tests and the container start plain JavaScript instead of compiling on the fly with tsx.
 * Third-party packages stay outside the bundle, imported from where pnpm installed them (their own
 * `import.meta.url`, `__dirname` and CommonJS behave as under tsx). A bundle sits at the same depth as
 * `src/`, so the `new URL('../..', import.meta.url)` paths of the sources (migrations, the page) still hold.
 *
 *   node scripts/build-services.mjs [--if-stale]
 *
 * `--if-stale` builds only when the sources, the manifests, the lockfile or this file changed since the
 * last build (`services/.dist-stamp`); `scripts/service.sh` calls it that way before every start. Plain
 * JavaScript, so that the check costs one Node start and no compiler.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const services = ['event-store', 'trigger-router', 'supervisor', 'graph-creator', 'connect-hub', 'gateway'];
const stampFile = join(root, 'services', '.dist-stamp');

function files(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : [path];
    })
    .sort();
}

/** Everything a bundle is made of but node_modules (the lockfile stands for those). */
function inputsHash() {
  const dirs = [
    ...services.map((s) => join(root, 'services', s, 'src')),
    ...readdirSync(join(root, 'packages')).map((p) => join(root, 'packages', p, 'src')),
    join(root, 'schemas', 'src'),
  ];
  const manifests = [
    ...services.map((s) => join(root, 'services', s, 'package.json')),
    ...readdirSync(join(root, 'packages')).map((p) => join(root, 'packages', p, 'package.json')),
    join(root, 'schemas', 'package.json'),
    join(root, 'pnpm-lock.yaml'),
    fileURLToPath(import.meta.url),
  ];
  const hash = createHash('sha256');
  for (const path of [...dirs.flatMap(files), ...manifests]) {
    if (!existsSync(path)) continue;
    hash.update(relative(root, path)).update('\0').update(readFileSync(path)).update('\0');
  }
  return hash.digest('hex');
}

/** Bare imports of anything but the workspace's packages stay imports, of the file pnpm resolved them to. */
const thirdPartyExternal = {
  name: 'third-party-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('@hireloop/') || args.pluginData?.resolving) return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: { resolving: true },
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      return { path: resolved.external ? args.path : resolved.path, external: true };
    });
  },
};

async function buildAll() {
  // esbuild is the page's build tool already (the gateway's dev dependency): no second copy to install
  const { build } = createRequire(join(root, 'services', 'gateway', 'package.json'))('esbuild');
  await Promise.all(
    services.map(async (name) => {
      const dist = join(root, 'services', name, 'dist');
      const tmp = join(dist, `main.${process.pid}.tmp.js`);
      await build({
        entryPoints: [join(root, 'services', name, 'src', 'main.ts')],
        outfile: tmp,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        sourcemap: 'linked',
        logLevel: 'warning',
        plugins: [thirdPartyExternal],
      });
      // a start racing this build sees the old bundle or the new one, never half of one
      renameSync(`${tmp}.map`, join(dist, 'main.js.map'));
      writeFileSync(tmp, readFileSync(tmp, 'utf8').replace(`main.${process.pid}.tmp.js.map`, 'main.js.map'));
      renameSync(tmp, join(dist, 'main.js'));
    }),
  );
}

const ifStale = process.argv.includes('--if-stale');
const hash = inputsHash();
const fresh =
  existsSync(stampFile) &&
  readFileSync(stampFile, 'utf8') === hash &&
  services.every((s) => existsSync(join(root, 'services', s, 'dist', 'main.js')));
if (!(ifStale && fresh)) {
  const started = Date.now();
  await buildAll().catch((error) => {
    rmSync(stampFile, { force: true });
    console.error(`building the services failed: ${error.message}`);
    process.exit(1);
  });
  writeFileSync(stampFile, hash);
  if (!ifStale || process.stdout.isTTY)
    console.log(`built ${services.length} services into services/*/dist in ${Date.now() - started} ms`);
}
