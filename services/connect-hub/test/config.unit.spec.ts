import { ConfigError } from '@hireloop/platform';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMIT, loadConnectHubConfig } from '../src/config';

describe("the hub's configuration", () => {
  it('defaults CONNECT_HUB_RATE_LIMIT to 600 requests per user per minute', () => {
    expect(DEFAULT_RATE_LIMIT).toBe(600);
    expect(loadConnectHubConfig({})).toEqual({ rateLimitPerMinute: 600 });
    expect(loadConnectHubConfig({ CONNECT_HUB_RATE_LIMIT: ' ' })).toEqual({ rateLimitPerMinute: 600 });
  });

  it('reads CONNECT_HUB_RATE_LIMIT', () => {
    expect(loadConnectHubConfig({ CONNECT_HUB_RATE_LIMIT: '42' })).toEqual({ rateLimitPerMinute: 42 });
  });

  it.each(['0', '-5', '1.5', 'lots', '1e400'])('refuses CONNECT_HUB_RATE_LIMIT=%s naming the variable', (raw) => {
    expect(() => loadConnectHubConfig({ CONNECT_HUB_RATE_LIMIT: raw })).toThrow(ConfigError);
    expect(() => loadConnectHubConfig({ CONNECT_HUB_RATE_LIMIT: raw })).toThrow(/CONNECT_HUB_RATE_LIMIT/);
  });
});
