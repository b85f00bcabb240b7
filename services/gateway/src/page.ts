/**
 * The chat page at `/` (ARCHITECTURE §13): the files `services/gateway/page/build.ts` wrote, served with
 * caching headers — hashed assets for a year (immutable), `index.html` revalidated every time — and,
 * outside production, `POST /dev/token`, which signs a token for any user and org so that a developer
 * can sign in from the page. A gateway whose page is not built still starts: `/` then says how to build it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Principal } from '@hireloop/platform';
import { Id } from '@hireloop/schemas';
import { Type } from '@sinclair/typebox';

/** Where `page/build.ts` writes the page. */
export const DEFAULT_PAGE_DIR = fileURLToPath(new URL('../page/dist', import.meta.url));

export interface PageOptions {
  /** the built page: index.html and assets/ */
  dir: string;
  /** signs a token for a user and org; present only outside production */
  devToken?: (principal: Principal) => string;
}

/**
 * The page's options for a deployment: the dev token route exists only outside production, signing
 * with the gateway's own secret for 12 hours.
 */
export function pageOptions(settings: {
  dir: string;
  nodeEnv: string;
  sign: (principal: Principal, expiresIn: string) => string;
}): PageOptions {
  return {
    dir: settings.dir,
    ...(settings.nodeEnv === 'production' ? {} : { devToken: (principal: Principal) => settings.sign(principal, '12h') }),
  };
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The page runs only its own bundle and talks only to the gateway; user text never becomes markup. */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self' ws: wss:; font-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'self'";

interface Asset {
  body: Buffer;
  type: string;
}

/** Reads the built page into memory (a few hundred KiB); null when it has not been built. */
function loadPage(dir: string): { index: Buffer; assets: Map<string, Asset> } | null {
  const indexPath = join(dir, 'index.html');
  if (!existsSync(indexPath)) return null;
  const assets = new Map<string, Asset>();
  const assetDir = join(dir, 'assets');
  if (existsSync(assetDir)) {
    for (const name of readdirSync(assetDir)) {
      const path = join(assetDir, name);
      if (!statSync(path).isFile()) continue;
      assets.set(name, { body: readFileSync(path), type: TYPES[extname(name)] ?? 'application/octet-stream' });
    }
  }
  return { index: readFileSync(indexPath), assets };
}

const DevTokenBody = Type.Object({ user: Id, org: Id }, { additionalProperties: false });
const DevToken = Type.Object({ token: Type.String() }, { additionalProperties: false });

export const pageRoutes: FastifyPluginAsyncTypebox<PageOptions> = async (app, { dir, devToken }) => {
  const page = loadPage(dir);
  if (!page) app.log.warn({ dir }, 'the chat page is not built: `/` explains how to build it');

  app.get('/', { schema: { hide: true } }, async (_request, reply) => {
    if (!page) {
      return reply
        .code(404)
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send('The hireloop page is not built: run `make up`, or `pnpm -s build:page`, then restart the gateway.\n');
    }
    return reply
      .type(TYPES['.html']!)
      .header('cache-control', 'no-cache')
      .header('content-security-policy', CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .send(page.index);
  });

  app.get<{ Params: { name: string } }>('/assets/:name', { schema: { hide: true } }, async (request, reply) => {
    const asset = page?.assets.get(request.params.name);
    if (!asset) return reply.code(404).send({ code: 'not_found', message: `no asset ${request.params.name}` });
    return reply.type(asset.type).header('cache-control', IMMUTABLE).header('x-content-type-options', 'nosniff').send(asset.body);
  });

  if (devToken) {
    app.post(
      '/dev/token',
      {
        schema: {
          summary: 'Development only: a token for any user and org (absent with NODE_ENV=production)',
          tags: ['development'],
          body: DevTokenBody,
          response: { 200: DevToken },
        },
      },
      async (request) => ({ token: devToken({ userId: request.body.user, orgId: request.body.org }) }),
    );
  }
};
