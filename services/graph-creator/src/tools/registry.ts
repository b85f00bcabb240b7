/**
 * The tool registry (ARCHITECTURE §12): every call of a run goes through `call`. Today's rails are
 * the capability's schemas and the idempotency record; scopes, policy, budgets, rate limits and the
 * breaker go in `call` in §12's order when they come (each refusal a failed effect with its code).
 */
import { type Clock, systemClock } from '@hireloop/platform';
import type { CatalogCapability, Effect, ObjectJsonSchema } from '@hireloop/schemas';
import { Ajv, type ValidateFunction } from 'ajv';
import { idempotencyKey } from '../runtime/plan';
import type { CapabilityCatalog } from './catalog';
import { ConnectorError } from './connector';
import type { Connectors } from './connectors';
import type { EffectStore } from './effects';

export interface ToolContext {
  executionId: string;
  orgId: string;
}

export interface StepRef {
  id: string;
  capabilityId: string;
}

export interface CallResult {
  effect: Effect;
  /** the recorded effect of an earlier call with the same key: nothing was done this time */
  replayed: boolean;
}

export interface ToolRegistryDeps {
  catalog: CapabilityCatalog;
  connectors: Connectors;
  effects: EffectStore;
  clock?: Clock;
}

const MAX_ERROR = 480;

export class ToolRegistry {
  private readonly ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  private readonly compiled = new WeakMap<ObjectJsonSchema, ValidateFunction>();
  private readonly clock: Clock;

  constructor(private readonly deps: ToolRegistryDeps) {
    this.clock = deps.clock ?? systemClock;
  }

  /** The org's capabilities, with those connectors bring. */
  capabilities(orgId: string): Promise<ReadonlyMap<string, CatalogCapability>> {
    return this.deps.catalog.capabilities(orgId);
  }

  /**
   * One call of one step: the recorded effect if this key has one; otherwise validate the arguments,
   * call the provider's connector, validate its answer, and record the effect before returning it
   * (the caller publishes it after). A failure is an effect too, recorded with its code.
   */
  async call(ctx: ToolContext, step: StepRef, args: Record<string, unknown>): Promise<CallResult> {
    const key = idempotencyKey(ctx.executionId, step.id, args);
    const recorded = await this.deps.effects.get(key);
    if (recorded) return { effect: recorded, replayed: true };
    const base = { stepId: step.id, capabilityId: step.capabilityId, args, idempotencyKey: key };
    const outcome = await this.act(ctx, step, args, key);
    const effect: Effect = { ...base, ...outcome, at: this.clock.now().toISOString() };
    return { effect: await this.deps.effects.record(effect, ctx), replayed: false };
  }

  /** Records a step that did not act: skipped (its condition, a dependency) or rejected by its approver. */
  async record(
    ctx: ToolContext,
    step: StepRef,
    args: Record<string, unknown>,
    status: 'skipped' | 'rejected',
    why: { code: string; message: string },
  ): Promise<Effect> {
    const key = idempotencyKey(ctx.executionId, step.id, args);
    const effect: Effect = {
      stepId: step.id,
      capabilityId: step.capabilityId,
      args,
      idempotencyKey: key,
      status,
      error: { code: why.code, message: why.message.slice(0, MAX_ERROR) },
      at: this.clock.now().toISOString(),
    };
    return this.deps.effects.record(effect, ctx);
  }

  private async act(
    ctx: ToolContext,
    step: StepRef,
    args: Record<string, unknown>,
    key: string,
  ): Promise<Pick<Effect, 'status' | 'output' | 'error'>> {
    const capability = (await this.capabilities(ctx.orgId)).get(step.capabilityId);
    if (!capability) return failed('unknown_capability', `${step.capabilityId} is not in the catalog`);
    const input = this.check(capability.inputSchema, args);
    if (input) return failed('invalid_args', `the arguments of ${capability.id} break its input schema: ${input}`);
    let output: Record<string, unknown>;
    try {
      output = await this.deps.connectors
        .for(capability.providerId)
        .call(capability, args, { orgId: ctx.orgId, executionId: ctx.executionId, stepId: step.id, idempotencyKey: key });
    } catch (error) {
      if (error instanceof ConnectorError) return failed(error.code, error.message);
      return failed('tool_failed', `${capability.id}: ${(error as Error).message}`);
    }
    if (capability.outputSchema) {
      const broken = this.check(capability.outputSchema, output);
      if (broken) return failed('invalid_output', `${capability.id} answered with an output that breaks its schema: ${broken}`);
    }
    return { status: 'succeeded', output };
  }

  /** What breaks a schema, in words; undefined when the value satisfies it. */
  private check(schema: ObjectJsonSchema, value: unknown): string | undefined {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.compiled.set(schema, validate);
    }
    if (validate(value)) return undefined;
    return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim()).join('; ');
  }
}

const failed = (code: string, message: string): Pick<Effect, 'status' | 'error'> => ({
  status: 'failed',
  error: { code, message: message.slice(0, MAX_ERROR) },
});
