import { builtInCatalog, type OrgPolicy } from '@hireloop/schemas';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CatalogChanges } from '../src/connect-hub/changes';
import { staticCatalog } from '../src/tools/catalog';
import { type Connector, ConnectorError } from '../src/tools/connector';
import { Connectors } from '../src/tools/connectors';
import { memoryEffects } from '../src/tools/effects';
import { fixedScopes, hubScopes, memoryCircuits, memoryPolicies, memoryRateLimits } from '../src/tools/guards';
import { toolMetrics } from '../src/tools/metrics';
import { type Rails, ToolRegistry } from '../src/tools/registry';
import { sandboxConnector } from '../src/tools/sandbox';

const step = { id: 'post', capabilityId: 'slack.post_message' };
const args = { channel: '#ops', text: 'hello' };
let n = 0;
const ctx = (orgId = 'acme') => ({ executionId: `x-${++n}`, orgId });

/** A registry whose slack connector answers with `answer` and counts its calls; a manual clock. */
function setup(rails: Rails = {}, answer: Connector['call'] = sandboxConnector.call) {
  const calls: string[] = [];
  const clock = { t: new Date('2026-11-24T12:00:00Z'), now: () => clock.t };
  const slack: Connector = {
    call: async (capability, a, c) => {
      calls.push(c.idempotencyKey);
      return answer(capability, a, c);
    },
  };
  const tools = new ToolRegistry({
    catalog: staticCatalog(builtInCatalog.capabilities),
    connectors: new Connectors({ slack }),
    effects: memoryEffects(),
    clock,
    rails: { retryInitialDelayMs: 1, sleep: async () => undefined, ...rails },
  });
  return { tools, calls, clock };
}

const down =
  (code = 'unavailable') =>
  async () => {
    throw new ConnectorError(code, 'slack is down');
  };

describe('the registry rails, in order', () => {
  it('given the org has not connected slack, when a slack step is called, then scope_denied and nothing acts', async () => {
    const { tools, calls } = setup({ scopes: fixedScopes({ acme: ['zendesk'] }) });
    const result = await tools.call(ctx(), step, args);
    expect(result).toMatchObject({ refused: true, effect: { status: 'failed', error: { code: 'scope_denied' } } });
    expect(calls).toEqual([]);
  });
  /** The hub's view of slack's capability: connected at the first read only; `reads` counts the reads. */
  const slackHub = () => {
    const slackCap = builtInCatalog.capabilities.find((c) => c.id === step.capabilityId);
    const hub = {
      reads: 0,
      capabilities: async () => {
        hub.reads += 1;
        return slackCap ? [{ ...slackCap, connected: hub.reads === 1 }] : [];
      },
    };
    return hub;
  };
  it("given the hub's view of the org, then its connected providers are the scopes, read once per ttl", async () => {
    let t = 0;
    const hub = slackHub();
    const { tools, calls } = setup({ scopes: hubScopes(hub, new CatalogChanges(1_000, () => t)) });
    expect((await tools.call(ctx(), step, args)).effect.status).toBe('succeeded');
    expect((await tools.call(ctx(), step, args)).effect.status).toBe('succeeded');
    expect(hub.reads).toBe(1);
    t = 1_000;
    expect((await tools.call(ctx(), step, args)).effect.error?.code).toBe('scope_denied');
    expect(hub.reads).toBe(2);
    expect(calls).toHaveLength(2);
  });
  it('given scopes read within the TTL, when the org’s connections change, then the next call reads them again', async () => {
    const hub = slackHub();
    const changes = new CatalogChanges(60_000, () => 0);
    const { tools, calls } = setup({ scopes: hubScopes(hub, changes) });
    expect((await tools.call(ctx(), step, args)).effect.status).toBe('succeeded');
    changes.change('globex');
    expect((await tools.call(ctx(), step, args)).effect.status).toBe('succeeded');
    expect(hub.reads).toBe(1);
    changes.change('acme');
    expect((await tools.call(ctx(), step, args)).effect.error?.code).toBe('scope_denied');
    expect(hub.reads).toBe(2);
    expect(calls).toHaveLength(2);
  });
  it('given a scope refusal and a policy refusal, then the scope is named: it comes first', async () => {
    const { tools } = setup({
      scopes: fixedScopes({ acme: [] }),
      policies: memoryPolicies({ acme: { deniedTools: ['slack'] } }),
    });
    expect((await tools.call(ctx(), step, args)).effect.error?.code).toBe('scope_denied');
  });
  it("given the org's policy denies slack, when a slack step is called, then policy_denied and nothing acts", async () => {
    const policy: OrgPolicy = { allowedTools: ['zendesk'] };
    const { tools, calls } = setup({ policies: memoryPolicies({ acme: policy }) });
    const { effect } = await tools.call(ctx(), step, args);
    expect(effect).toMatchObject({ status: 'failed', error: { code: 'policy_denied' } });
    expect(calls).toEqual([]);
  });
  it('given no tool calls left in the budget, then budget_exceeded and nothing acts', async () => {
    const { tools, calls } = setup();
    const { effect } = await tools.call({ ...ctx(), toolCallsLeft: 0 }, step, args);
    expect(effect).toMatchObject({ status: 'failed', error: { code: 'budget_exceeded' } });
    expect(calls).toEqual([]);
  });
  it('given a rate of 2/m and no wait, when 3 calls come, then the third is rate_limited; another org is not slowed', async () => {
    const { tools, calls } = setup({ rates: memoryRateLimits(), defaultRate: '2/m', rateMaxWaitMs: 0 });
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await tools.call(ctx(), step, args)).effect.error?.code ?? 'ok');
    expect(codes).toEqual(['ok', 'ok', 'rate_limited']);
    expect((await tools.call(ctx('globex'), step, args)).effect.status).toBe('succeeded');
    expect(calls).toHaveLength(3);
  });
  it("given the org's own rate for a tool, then it wins over the default", async () => {
    const policies = memoryPolicies({ acme: { rates: [{ capabilityId: 'slack.post_message', rate: '1/h' }] } });
    const { tools } = setup({ rates: memoryRateLimits(), defaultRate: '60/m', rateMaxWaitMs: 0, policies });
    expect((await tools.call(ctx(), step, args)).effect.status).toBe('succeeded');
    expect((await tools.call(ctx(), step, args)).effect.error?.code).toBe('rate_limited');
  });
  it('given a failing tool, when it fails N times, then its circuit opens and the next call is circuit_open without acting', async () => {
    const { tools, calls } = setup({ circuits: memoryCircuits(), circuitThreshold: 2, retries: 0 }, down());
    expect((await tools.call(ctx(), step, args)).effect.error?.code).toBe('unavailable');
    expect((await tools.call(ctx(), step, args)).effect.error?.code).toBe('unavailable');
    const refused = (await tools.call(ctx(), step, args)).effect;
    expect(refused).toMatchObject({ status: 'failed', error: { code: 'circuit_open' } });
    expect(refused.error?.message).toMatch(/2 consecutive failures/);
    expect(calls).toHaveLength(2);
  });
  it('given an open circuit, when the cool-down passes, then one probe acts; its success closes the circuit', async () => {
    let fail = true;
    const { tools, calls, clock } = setup(
      { circuits: memoryCircuits(), circuitThreshold: 1, circuitCoolDownMs: 1_000, retries: 0 },
      async (c, a, cx) => {
        if (fail) throw new ConnectorError('timeout', 'slow');
        return sandboxConnector.call(c, a, cx);
      },
    );
    await tools.call(ctx(), step, args);
    expect((await tools.call(ctx(), step, args)).effect.error?.code).toBe('circuit_open');
    fail = false;
    clock.t = new Date(clock.t.getTime() + 1_000);
    expect((await tools.call(ctx(), step, args)).effect.status).toBe('succeeded');
    expect((await tools.call(ctx(), step, args)).effect.status).toBe('succeeded');
    expect(calls).toHaveLength(3);
  });
  it('given a permanent failure (a 4xx), then it is not retried and does not count against the circuit', async () => {
    const { tools, calls } = setup({ circuits: memoryCircuits(), circuitThreshold: 1, retries: 3 }, down('http_error'));
    expect((await tools.call(ctx(), step, args)).effect.error?.code).toBe('http_error');
    expect(calls).toHaveLength(1);
    expect((await tools.call(ctx(), step, args)).effect.error?.code).toBe('http_error');
  });
  it('given a transient failure once, then the call is retried with the same key and succeeds', async () => {
    let failures = 1;
    const { tools, calls } = setup({ retries: 2 }, async (c, a, cx) => {
      if (failures-- > 0) throw new ConnectorError('server_error', 'answered 503');
      return sandboxConnector.call(c, a, cx);
    });
    const { effect } = await tools.call(ctx(), step, args);
    expect(effect.status).toBe('succeeded');
    expect(calls).toHaveLength(2);
    expect(calls[0]).toBe(calls[1]);
  });
  it('given a transient failure every time, then the call is tried 1 + retries times and fails with its code', async () => {
    const { tools, calls } = setup({ retries: 2 }, down('timeout'));
    expect((await tools.call(ctx(), step, args)).effect.error?.code).toBe('timeout');
    expect(calls).toHaveLength(3);
  });
});

describe("the registry's metrics", () => {
  it('given calls that succeed, are refused and replay, then each non-replayed call counts once by outcome', async () => {
    const metrics = new Registry();
    const tools = new ToolRegistry({
      catalog: staticCatalog(builtInCatalog.capabilities),
      connectors: new Connectors({ slack: sandboxConnector }),
      effects: memoryEffects(),
      rails: { rates: memoryRateLimits(), defaultRate: '1/h', rateMaxWaitMs: 0 },
      observe: toolMetrics(metrics),
    });
    const first = ctx();
    await tools.call(first, step, args);
    await tools.call(ctx(), step, args);
    const text = await metrics.metrics();
    expect(text).toContain('hireloop_tool_calls_total{capability="slack.post_message",outcome="succeeded"} 1');
    expect(text).toContain('hireloop_tool_calls_total{capability="slack.post_message",outcome="rate_limited"} 1');
    expect(text).toContain('hireloop_tool_call_seconds_count{capability="slack.post_message"} 1');
  });
});
