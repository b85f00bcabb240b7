import { builtInCatalog, type CatalogCapability } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import { staticCatalog } from '../src/tools/catalog';
import { type Connector, ConnectorError } from '../src/tools/connector';
import { Connectors } from '../src/tools/connectors';
import { memoryEffects } from '../src/tools/effects';
import { ToolRegistry } from '../src/tools/registry';
import { sandboxConnector } from '../src/tools/sandbox';

const refund: CatalogCapability = {
  ...(builtInCatalog.capabilities.find((c) => c.id === 'stripe.refund_payment') as CatalogCapability),
  outputSchema: {
    type: 'object',
    properties: { refundId: { type: 'string', description: 'id' } },
    required: ['refundId'],
    additionalProperties: false,
  },
};
const ctx = { executionId: 'x-1', orgId: 'acme' };
const step = { id: 'refund', capabilityId: 'stripe.refund_payment' };

function setup(stripe: Connector = sandboxConnector) {
  const calls: string[] = [];
  const counting: Connector = {
    call: async (capability, args, c) => {
      calls.push(c.idempotencyKey);
      return stripe.call(capability, args, c);
    },
  };
  const effects = memoryEffects();
  const tools = new ToolRegistry({
    catalog: staticCatalog([refund, ...builtInCatalog.capabilities.filter((c) => c.id !== refund.id)]),
    connectors: new Connectors({ stripe: counting }),
    effects,
  });
  return { tools, calls, effects };
}

describe('the tool registry', () => {
  it('given a recorded call, when the same step calls again with the same arguments, then the record answers and nothing acts', async () => {
    const { tools, calls } = setup();
    const first = await tools.call(ctx, step, { paymentId: 'pi_1', amount: 5 });
    const again = await tools.call(ctx, step, { amount: 5, paymentId: 'pi_1' });
    expect(first).toMatchObject({ replayed: false, effect: { status: 'succeeded', output: { refundId: expect.any(String) } } });
    expect(again).toEqual({ replayed: true, effect: first.effect });
    expect(calls).toHaveLength(1);
  });
  it('given arguments that break the input schema, then the provider is never called and the effect fails with invalid_args', async () => {
    const { tools, calls } = setup();
    const { effect } = await tools.call(ctx, step, { amount: -1 });
    expect(effect).toMatchObject({ status: 'failed', error: { code: 'invalid_args' } });
    expect(effect.error?.message).toMatch(/paymentId/);
    expect(calls).toEqual([]);
  });
  it('given a provider answer that breaks the output schema, then the effect fails with invalid_output', async () => {
    const { tools } = setup({ call: async () => ({ nope: 1 }) });
    expect((await tools.call(ctx, step, { paymentId: 'p' })).effect).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_output' },
    });
  });
  it("given a provider's refusal, then its code is the effect's; an unknown capability fails as such", async () => {
    const { tools } = setup({
      call: async () => {
        throw new ConnectorError('card_declined', 'declined');
      },
    });
    expect((await tools.call(ctx, step, { paymentId: 'p' })).effect.error).toEqual({
      code: 'card_declined',
      message: 'declined',
    });
    expect((await tools.call(ctx, { id: 's', capabilityId: 'nope.x' }, {})).effect.error?.code).toBe('unknown_capability');
  });
  it('a skipped or rejected step is recorded once with its reason', async () => {
    const { tools, effects } = setup();
    await tools.record(ctx, step, { paymentId: 'p' }, 'rejected', { code: 'rejected', message: 'rejected by the approver' });
    await tools.record(ctx, step, { paymentId: 'p' }, 'rejected', { code: 'rejected', message: 'rejected by the approver' });
    expect(await effects.list('x-1')).toEqual([
      expect.objectContaining({ status: 'rejected', error: { code: 'rejected', message: 'rejected by the approver' } }),
    ]);
  });

  it('given a transient failure that comes after the run was cancelled, when called, then it is not tried again and the effect says cancelled', async () => {
    const attempts: number[] = [];
    const flaky: Connector = {
      call: async () => {
        attempts.push(Date.now());
        // (it fails after the cancel came, whatever the backoff would have been)
        await new Promise((r) => setTimeout(r, 50));
        throw new ConnectorError('server_error', 'the provider is down');
      },
    };
    const tools = new ToolRegistry({
      catalog: staticCatalog([refund]),
      connectors: new Connectors({ stripe: flaky }),
      effects: memoryEffects(),
      rails: { retries: 2, retryInitialDelayMs: 1_000 },
    });
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 10);
    const { effect } = await tools.call({ ...ctx, signal: cancel.signal }, step, { paymentId: 'pi_1', amount: 5 });
    expect(attempts).toHaveLength(1);
    expect(effect).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
  });
});
