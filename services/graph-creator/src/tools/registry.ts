/**
 * The tool registry (ARCHITECTURE §12): every call of a run goes through `call`, behind the rails in
 * §12's order — scope, policy, budget, rate limit, circuit breaker, idempotency — then the call with
 * retries for transient errors only. A refusal acts on nothing and is a failed effect whose error
 * code is the reason (`scope_denied`, `policy_denied`, `quiet_hours`, `budget_exceeded`,
 * `rate_limited`, `circuit_open`).
 */
import { type Clock, systemClock } from '@hireloop/platform';
import {
  type CatalogCapability,
  type Effect,
  firstUnits,
  type ObjectJsonSchema,
  type OrgPolicy,
  storable,
} from '@hireloop/schemas';
import { Ajv, type ValidateFunction } from 'ajv';
import { ExponentialBackoff, handleWhen, retry } from 'cockatiel';
import type { Faults } from '../faults';
import { idempotencyKey } from '../runtime/plan';
import type { CapabilityCatalog } from './catalog';
import { ConnectorError } from './connector';
import type { Connectors } from './connectors';
import type { EffectStore } from './effects';
import { allScopes, type CircuitStore, memoryPolicies, type PolicyStore, type RateLimits, type ScopeSource } from './guards';
import {
  budgetDecision,
  circuitGate,
  isTransient,
  policyDecision,
  type Refusal,
  rateDecision,
  rateOf,
  scopeDecision,
} from './rails';

export interface ToolContext {
  executionId: string;
  orgId: string;
  /** the run's tool calls left in its budget (absent: no limit) */
  toolCallsLeft?: number;
  /** a person approved this step (quiet hours with `during: 'approval'` let it through) */
  approved?: boolean;
  /** aborted when the run is cancelled: the call in flight is stopped and not tried again */
  signal?: AbortSignal;
}

/** The rails' state and settings; each absent one lets every call through (tests of other things). */
export interface Rails {
  scopes?: ScopeSource;
  policies?: PolicyStore;
  rates?: RateLimits;
  /** a tool's rate when the org's policy names none, e.g. "60/m" (absent: unlimited) */
  defaultRate?: string;
  /** how long a rate-limited call may wait for the next point before it is refused */
  rateMaxWaitMs?: number;
  circuits?: CircuitStore;
  /** consecutive failures that open a tool's circuit for an org */
  circuitThreshold?: number;
  /** how long an open circuit refuses before one call probes it */
  circuitCoolDownMs?: number;
  /** attempts after the first, for transient errors */
  retries?: number;
  retryInitialDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface StepRef {
  id: string;
  capabilityId: string;
}

export interface CallResult {
  effect: Effect;
  /** the recorded effect of an earlier call with the same key: nothing was done this time */
  replayed: boolean;
  /** a rail refused the call: nothing reached the provider (the effect's error code says which) */
  refused?: boolean;
}

/** What `observe` hears of each call that was not a replay. */
export interface CallObservation {
  orgId: string;
  capabilityId: string;
  /** `succeeded`, or the effect's error code (a refusal's reason, the provider's failure) */
  outcome: string;
  /** whether the provider was called */
  acted: boolean;
  ms: number;
}

export interface ToolRegistryDeps {
  catalog: CapabilityCatalog;
  connectors: Connectors;
  effects: EffectStore;
  clock?: Clock;
  rails?: Rails;
  /** told of every call that was not a replay (the worker's metrics) */
  observe?: (observation: CallObservation) => void;
  /** named moments where a chaos test has the worker kill itself (off by default) */
  faults?: Faults;
}

const MAX_ERROR = 480;

export class ToolRegistry {
  private readonly ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  private readonly compiled = new WeakMap<ObjectJsonSchema, ValidateFunction>();
  private readonly clock: Clock;
  private readonly rails: Rails & Required<Pick<Rails, 'scopes' | 'policies' | 'sleep'>>;

  constructor(private readonly deps: ToolRegistryDeps) {
    this.clock = deps.clock ?? systemClock;
    this.rails = {
      scopes: allScopes,
      policies: memoryPolicies(),
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      ...deps.rails,
    };
  }

  /** The org's policy (the runtime reads its default budgets). */
  policy(orgId: string): Promise<OrgPolicy> {
    return this.rails.policies.get(orgId);
  }

  /**
   * Whether the org refuses this call whatever a person says — a scope it has not connected, a tool or an
   * argument its policy denies — so that asking anybody to approve it would be moot. Quiet hours, budgets
   * and rates are not: an approval or a later moment can pass them.
   */
  async outrightRefusals(
    orgId: string,
    policyRead?: OrgPolicy,
  ): Promise<(capability: CatalogCapability, args: Record<string, unknown>) => Refusal | undefined> {
    // the org's scopes and policy (the caller's, when it has read it already), read once for every step a node weighs
    const [connected, policy] = await Promise.all([
      this.rails.scopes.connected(orgId),
      policyRead ?? this.rails.policies.get(orgId),
    ]);
    const now = this.clock.now();
    return (capability, args) => {
      const scope = scopeDecision(capability, connected);
      if (scope) return scope;
      const denied = policyDecision(policy, capability, args, now, true);
      return denied?.code === 'policy_denied' ? denied : undefined;
    };
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
    const base = { stepId: step.id, capabilityId: step.capabilityId, args, idempotencyKey: key };
    const started = performance.now();
    const finish = async (outcome: Pick<Effect, 'status' | 'output' | 'error'>, refused = false): Promise<CallResult> => {
      const effect: Effect = { ...base, ...outcome, at: this.clock.now().toISOString() };
      this.deps.observe?.({
        orgId: ctx.orgId,
        capabilityId: step.capabilityId,
        outcome: outcome.error?.code ?? outcome.status,
        acted: !refused && outcome.error?.code !== 'invalid_args',
        ms: performance.now() - started,
      });
      const recorded = await this.deps.effects.record(effect, ctx);
      this.deps.faults?.at('execute');
      return { effect: recorded, replayed: false, ...(refused ? { refused } : {}) };
    };
    const capability = (await this.capabilities(ctx.orgId)).get(step.capabilityId);
    if (!capability) return finish(failed('unknown_capability', `${step.capabilityId} is not in the catalog`), true);
    const gate = await this.gate(ctx, capability, args);
    if ('code' in gate) {
      // quiet hours pass: the call refused now is made later with the same key (a deferred step), so
      // this refusal is recorded under a key of its own, never replayed in place of that call
      if (gate.code === 'quiet_hours') base.idempotencyKey = `${key}#quiet_hours@${this.clock.now().toISOString()}`;
      return finish(failed(gate.code, gate.message), true);
    }
    const recorded = await this.deps.effects.get(key);
    if (recorded) return { effect: recorded, replayed: true };
    const outcome = await this.act(ctx, step, capability, args, key);
    await this.reportCircuit(ctx, capability, outcome);
    return finish(outcome);
  }

  /** The rails before the call, in §12's order: the first refusal, or pass (maybe as a circuit's probe). */
  private async gate(
    ctx: ToolContext,
    capability: CatalogCapability,
    args: Record<string, unknown>,
  ): Promise<Refusal | { pass: true }> {
    const r = this.rails;
    const scope = scopeDecision(capability, await r.scopes.connected(ctx.orgId));
    if (scope) return scope;
    const policy = await r.policies.get(ctx.orgId);
    const denied = policyDecision(policy, capability, args, this.clock.now(), ctx.approved === true);
    if (denied) return denied;
    const budget = budgetDecision(capability, ctx.toolCallsLeft);
    if (budget) return budget;
    const rate = rateOf(policy, capability.id, r.defaultRate);
    if (r.rates && rate) {
      let waited = 0;
      for (;;) {
        const taken = await r.rates.take(`${ctx.orgId}:${capability.id}`, rate);
        if (taken.ok) break;
        const next = rateDecision(taken.msBeforeNext, waited, r.rateMaxWaitMs ?? 2_000);
        if ('code' in next) return next;
        await r.sleep(next.wait);
        waited += next.wait;
      }
    }
    if (r.circuits) {
      const row = await r.circuits.read(ctx.orgId, capability.id);
      const decided = circuitGate(row, this.clock.now(), r.circuitCoolDownMs ?? 30_000);
      if ('code' in decided) return decided;
      if (decided.pass === 'probe' && !(await r.circuits.claimProbe(ctx.orgId, capability.id, row, this.clock.now())))
        return { code: 'circuit_open', message: `the circuit of ${capability.id} is half-open and another call is probing it` };
    }
    return { pass: true };
  }

  /**
   * The breaker counts the provider's failures: transient ones (after the retries) and unexpected
   * ones; an answer, even a permanent refusal such as a 4xx, shows the provider is there.
   */
  private async reportCircuit(ctx: ToolContext, capability: CatalogCapability, outcome: Pick<Effect, 'status' | 'error'>) {
    const circuits = this.rails.circuits;
    if (!circuits) return;
    const code = outcome.error?.code;
    // never reached the provider, or stopped before it answered: no word on whether it is there
    if (code === 'invalid_args' || code === 'cancelled' || code === 'target_refused') return;
    const providerFailed = outcome.status === 'failed' && (isTransient(code ?? '') || code === 'tool_failed');
    await circuits.report(ctx.orgId, capability.id, !providerFailed, this.rails.circuitThreshold ?? 5, this.clock.now());
  }

  /**
   * Records a step that did not act: skipped (its condition, a dependency), rejected by its approver, or failed
   * on a refusal decided when the run was planned (never called).
   */
  async record(
    ctx: ToolContext,
    step: StepRef,
    args: Record<string, unknown>,
    status: 'skipped' | 'rejected' | 'failed',
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
    capability: CatalogCapability,
    args: Record<string, unknown>,
    key: string,
  ): Promise<Pick<Effect, 'status' | 'output' | 'error'>> {
    const input = this.check(capability.inputSchema, args);
    if (input) return failed('invalid_args', `the arguments of ${capability.id} break its input schema: ${input}`);
    let output: Record<string, unknown>;
    const connector = this.deps.connectors.for(capability.providerId);
    const connectorCtx = {
      orgId: ctx.orgId,
      executionId: ctx.executionId,
      stepId: step.id,
      idempotencyKey: key,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    };
    const retries = retry(
      handleWhen((e) => e instanceof ConnectorError && isTransient(e.code) && !ctx.signal?.aborted),
      {
        maxAttempts: this.rails.retries ?? 2,
        backoff: new ExponentialBackoff({ initialDelay: this.rails.retryInitialDelayMs ?? 100, maxDelay: 5_000 }),
      },
    );
    try {
      // the same key on every attempt: a provider that dedupes acts once
      // a cancel of the run stops the call in flight (its connector's signal), and no attempt is made after it
      // (cockatiel 3 waits out a backoff it is in, then the attempt sees the signal)
      // (what a provider answers is kept as an effect and a checkpoint: a NUL in it is made storable, not refused)
      output = storable(
        await retries.execute(() => {
          if (ctx.signal?.aborted) throw new ConnectorError('cancelled', 'the run was cancelled');
          return connector.call(capability, args, connectorCtx);
        }),
      );
    } catch (error) {
      if (ctx.signal?.aborted)
        return failed('cancelled', `${capability.id}: stopped and not tried again, the run was cancelled while it was called`);
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
  // (a provider's error may quote what it answered, NULs and all)
  error: { code: storable(code), message: storable(firstUnits(message, MAX_ERROR)) },
});
