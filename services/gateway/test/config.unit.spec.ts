import { HireloopError } from '@hireloop/platform';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BODY_LIMIT, loadGatewayConfig, wsMaxPayload } from '../src/config';
import { toErrorReply } from '../src/errors';

describe('gateway configuration', () => {
  it('defaults outside production (dev secret, 256 KiB bodies and frames)', () => {
    expect(loadGatewayConfig({})).toMatchObject({
      jwtSecret: 'hireloop-dev-secret',
      bodyLimit: DEFAULT_BODY_LIMIT,
      frameLimit: DEFAULT_BODY_LIMIT,
    });
  });

  it('requires JWT_SECRET in production and names bad variables', () => {
    expect(() => loadGatewayConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET is required/);
    expect(() => loadGatewayConfig({ GATEWAY_RATE_LIMIT: 'lots' })).toThrow(/invalid GATEWAY_RATE_LIMIT/);
    expect(() => loadGatewayConfig({ NODE_ENV: 'production', JWT_SECRET: 's' })).toThrow(/HOOK_SECRET_KEY is required/);
    expect(
      loadGatewayConfig({
        NODE_ENV: 'production',
        JWT_SECRET: 's',
        HOOK_SECRET_KEY: 'a-production-hook-key',
        GATEWAY_BODY_LIMIT: '1024',
      }),
    ).toMatchObject({
      jwtSecret: 's',
      hookSecretKey: 'a-production-hook-key',
      bodyLimit: 1024,
      frameLimit: 1024,
    });
  });

  it('lets ws accept frames well above the gateway’s own limit, so an oversize frame is answered, not fatal', () => {
    expect(wsMaxPayload(DEFAULT_BODY_LIMIT)).toBeGreaterThan(2 * 1024 * 1024);
  });
});

describe('toErrorReply', () => {
  it('maps coded errors to their status with the field, and hides the internals of a 5xx behind a ref', () => {
    expect(toErrorReply(new HireloopError('CONFLICT', 'stale', { field: '/promptId' }), 'req-1')).toEqual({
      status: 409,
      body: { code: 'conflict', message: 'stale', field: '/promptId' },
      internal: false,
    });
    const hidden = toErrorReply(new Error('password=hunter2 at db.internal:5432'), 'req-2');
    expect(hidden).toMatchObject({ status: 500, internal: true, body: { code: 'internal', ref: 'req-2' } });
    expect(JSON.stringify(hidden.body)).not.toContain('hunter2');
    const broker = toErrorReply(new HireloopError('PUBLISH_FAILED', 'kafka 10.0.0.3:9092 refused'), 'req-3');
    expect(broker).toMatchObject({ status: 503, body: { code: 'publish_failed', ref: 'req-3' } });
    expect(broker.body.message).not.toContain('10.0.0.3');
  });
});
