/**
 * Builds the chat page into `page/dist` with esbuild: `index.html`, and under `assets/` the main
 * bundle, its stylesheet and the lazily loaded chunks (Mermaid), every asset named by its content hash.
 * `--if-stale` skips the build when the sources, this file and the lockfile are unchanged since the last
 * one (`dist/.stamp`); `make up` and `make test` call it that way. Prints each asset's size.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const pageDir = fileURLToPath(new URL('.', import.meta.url));
const srcDir = join(pageDir, 'src');
const distDir = join(pageDir, 'dist');
const lockfile = join(pageDir, '../../../pnpm-lock.yaml');

function files(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : [path];
    })
    .sort();
}

/** A hash of everything the build reads but node_modules (the lockfile stands for those). */
function inputsHash(): string {
  const hash = createHash('sha256');
  for (const path of [...files(srcDir), fileURLToPath(import.meta.url), lockfile]) {
    if (!existsSync(path)) continue;
    hash.update(relative(pageDir, path)).update('\0').update(readFileSync(path)).update('\0');
  }
  return hash.digest('hex');
}

export interface PageBuild {
  built: boolean;
  /** bytes of the assets the page loads first (main script and stylesheet), raw and gzipped */
  initial: { bytes: number; gzip: number };
  assets: { name: string; bytes: number; gzip: number }[];
}

function sizes(): PageBuild['assets'] {
  const dir = join(distDir, 'assets');
  return readdirSync(dir)
    .filter((n) => !n.endsWith('.map'))
    .map((name) => {
      const body = readFileSync(join(dir, name));
      return { name, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length };
    });
}

function initialOf(assets: PageBuild['assets']): PageBuild['initial'] {
  const index = readFileSync(join(distDir, 'index.html'), 'utf8');
  const first = assets.filter((a) => index.includes(`/assets/${a.name}`));
  return first.reduce((t, a) => ({ bytes: t.bytes + a.bytes, gzip: t.gzip + a.gzip }), { bytes: 0, gzip: 0 });
}

export async function buildPage(options: { ifStale?: boolean } = {}): Promise<PageBuild> {
  const stamp = join(distDir, '.stamp');
  const hash = inputsHash();
  if (options.ifStale && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash && existsSync(join(distDir, 'index.html'))) {
    const assets = sizes();
    return { built: false, initial: initialOf(assets), assets };
  }
  rmSync(distDir, { recursive: true, force: true });
  mkdirSync(join(distDir, 'assets'), { recursive: true });
  const result = await build({
    entryPoints: { main: join(srcDir, 'main.ts') },
    outdir: join(distDir, 'assets'),
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    target: ['es2022'],
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    metafile: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  const outputs = Object.entries(result.metafile.outputs);
  // dynamic imports (Mermaid) are entry points too: the page's own is the one built from src/main.ts
  const mainOutput = outputs.find(([, o]) => o.entryPoint?.endsWith('src/main.ts'));
  const main = mainOutput?.[0];
  const preload = (mainOutput?.[1].imports ?? []).filter((i) => i.kind === 'import-statement').map((i) => basename(i.path));
  const css = outputs.find(([path]) => path.endsWith('.css') && basename(path).startsWith('main-'))?.[0];
  if (!main) throw new Error('esbuild wrote no main bundle');
  const template = readFileSync(join(pageDir, 'index.html'), 'utf8');
  const html = template
    .replace('<!--styles-->', css ? `<link rel="stylesheet" href="/assets/${basename(css)}">` : '')
    .replace(
      '<!--script-->',
      [
        ...preload.map((p) => `<link rel="modulepreload" href="/assets/${p}">`),
        `<script type="module" src="/assets/${basename(main)}"></script>`,
      ].join('\n'),
    );
  writeFileSync(join(distDir, 'index.html'), html);
  writeFileSync(stamp, hash);
  const assets = sizes();
  return { built: true, initial: initialOf(assets), assets };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const ifStale = process.argv.includes('--if-stale');
  const { built, initial, assets } = await buildPage({ ifStale });
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  const lazy = assets.filter((a) => a.name.startsWith('chunk-')).reduce((t, a) => t + a.gzip, 0);
  console.log(
    `${built ? 'built' : 'up to date:'} the page in ${relative(process.cwd(), distDir) || '.'}: first load ${kib(initial.bytes)} (${kib(initial.gzip)} gzip), ` +
      `lazy chunks (Mermaid) ${kib(lazy)} gzip in ${assets.filter((a) => a.name.startsWith('chunk-')).length} files`,
  );
}
