import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signToken, tokenVerifier, validatorCompiler } from '@hireloop/platform';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { type PageOptions, pageOptions, pageRoutes } from '../src/page';

const SECRET = 'page-test-secret';
const dirs: string[] = [];

/** A built page as `page/build.ts` writes it: index.html and hashed assets. */
function builtPage(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hireloop-page-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><script type="module" src="/assets/main-ABC123.js"></script>');
  writeFileSync(join(dir, 'assets/main-ABC123.js'), 'console.log("hireloop")');
  writeFileSync(join(dir, 'assets/main-DEF456.css'), 'body{}');
  return dir;
}

async function app(options: PageOptions) {
  const server = Fastify();
  server.setValidatorCompiler(validatorCompiler);
  await server.register(pageRoutes, options);
  await server.ready();
  return server;
}

const sign = (principal: { userId: string; orgId: string }, expiresIn: string) => signToken(principal, SECRET, expiresIn);

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the page at /', () => {
  it('serves index.html revalidated every time, with a content security policy that allows only the gateway', async () => {
    const server = await app({ dir: builtPage() });
    const res = await server.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("connect-src 'self' ws: wss:");
    expect(res.body).toContain('/assets/main-ABC123.js');
  });

  it('serves hashed assets for a year, immutable, with their types; an unknown asset is 404', async () => {
    const server = await app({ dir: builtPage() });
    const js = await server.inject({ method: 'GET', url: '/assets/main-ABC123.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await server.inject({ method: 'GET', url: '/assets/main-DEF456.css' })).headers['content-type']).toBe(
      'text/css; charset=utf-8',
    );
    const missing = await server.inject({ method: 'GET', url: '/assets/main-OLD.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'not_found' });
    expect((await server.inject({ method: 'GET', url: '/assets/..%2Findex.html' })).statusCode).toBe(404);
  });

  it('a gateway whose page is not built still starts, and / says how to build it', async () => {
    const server = await app({ dir: join(tmpdir(), 'hireloop-no-such-page') });
    const res = await server.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatch(/not built: run `make up`/);
  });
});

describe('the development sign-in', () => {
  it('outside production, POST /dev/token signs a token for the user and org named', async () => {
    const server = await app(pageOptions({ dir: builtPage(), nodeEnv: 'development', sign }));
    const res = await server.inject({ method: 'POST', url: '/dev/token', payload: { user: 'alice', org: 'acme' } });
    expect(res.statusCode).toBe(200);
    expect(tokenVerifier(SECRET)(res.json<{ token: string }>().token)).toMatchObject({ userId: 'alice', orgId: 'acme' });
  });

  it('refuses a user or org that is not an id', async () => {
    const server = await app(pageOptions({ dir: builtPage(), nodeEnv: 'development', sign }));
    const res = await server.inject({ method: 'POST', url: '/dev/token', payload: { user: 'a b<script>', org: 'acme' } });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });

  it('does not exist with NODE_ENV=production', async () => {
    const options = pageOptions({ dir: builtPage(), nodeEnv: 'production', sign });
    expect(options.devToken).toBeUndefined();
    const server = await app(options);
    expect((await server.inject({ method: 'POST', url: '/dev/token', payload: { user: 'alice', org: 'acme' } })).statusCode).toBe(
      404,
    );
    expect((await server.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
  });
});
