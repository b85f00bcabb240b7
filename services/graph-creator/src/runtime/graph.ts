/**
 * The runtime graph: one run of a registered employee's workflow (ARCHITECTURE §11).
 * classify → plan → ask_inputs ⟲ → approve ⟲ → execute → summarize, with fallback.
 *
 * Exactly-once (§5): each node holds at most one interrupt, and everything before it is a read or a
 * pure decision. `execute` acts, and is not safe to re-run blindly: every call goes through the tool
 * registry with the key `executionId/stepId/hash(args)`, so a re-run after a crash finds the recorded
 * effect and acts no second time.
 */
import { type Clock, systemClock } from '@hireloop/platform';
import { type CatalogCapability, clipped, type Effect, RefusalCodes, type Step } from '@hireloop/schemas';
import { END, interrupt, START, StateGraph } from '@langchain/langgraph';
import { answers as answersOf, ask, selected } from '../prompt';
import type { NodeEvent } from '../runner';
import type { WaitSpec } from '../runner-decisions';
import { approvalInQuietHours, deferralOf } from '../tools/rails';
import type { ToolRegistry } from '../tools/registry';
import {
  batches,
  cannotRun,
  dependenciesOf,
  eventMatches,
  holds,
  missingInputs,
  planSteps,
  previewArgs,
  resolveArgs,
} from './plan';
import type { EmployeeSpecs } from './specs';
import { RunState, type RunStateT, type RunUpdate, type StepDone } from './state';

export interface RuntimeOptions {
  specs: EmployeeSpecs;
  tools: ToolRegistry;
  /** steps called at once within a batch of independent steps */
  parallelism?: number;
  /** when quiet hours end is read on it (the registry's rails read theirs) */
  clock?: Clock;
  /** whether a cancel of the execution came while it runs: no further step is called (the runner's `cancels`) */
  cancelRequested?: (executionId: string) => boolean;
}

const QUESTIONS_PER_PROMPT = 20;
const short = (text: string, max = 480): string => clipped(text, max);
/** The lower of two limits, either of which may be unset. */
const lowerOf = (a: number | undefined, b: number | undefined): number | undefined =>
  a !== undefined && b !== undefined ? Math.min(a, b) : (a ?? b);

const enter = (node: string, suffix = ''): NodeEvent => ({ key: `enter:${node}${suffix}`, event: 'node_enter', node });

/** Runs `fn` over `items`, at most `limit` at once, answers in the items' order. */
async function mapCapped<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Whether a step is called only with a person's approval: high-risk, or asked by the org's quiet hours. */
const needsApproval = (s: RunStateT, st: Step): boolean => st.risk === 'high' || s.quietApprovals.includes(st.id);

/** The planned step that still waits for its approver, if any. */
export const awaitingApproval = (s: RunStateT): Step | undefined => {
  const steps = s.workflow?.steps ?? [];
  const waiting = steps.filter((st) => needsApproval(s, st) && s.planned.includes(st.id) && !s.approvals[st.id]);
  if (waiting.length === 0) return undefined;
  // a step that cannot run (it depends on a rejected one, comes after one the org refuses, or lies past the run's
  // budget) is asked of nobody
  const reach = Math.min(s.workflow?.maxToolCalls ?? Number.POSITIVE_INFINITY, s.workflow?.maxSteps ?? Number.POSITIVE_INFINITY);
  const blocked = cannotRun(steps, s.planned, s.approvals, reach);
  return waiting.find((st) => !blocked.has(st.id));
};

/** Every step of the workflow and how it ended, in the workflow's order. */
export function stepOutcomes(s: RunStateT): { stepId: string; status: StepDone['status']; detail?: string }[] {
  return (s.workflow?.steps ?? []).map((st) => {
    const done = s.done[st.id];
    if (done) return { stepId: st.id, status: done.status, ...(done.detail ? { detail: short(done.detail) } : {}) };
    const why =
      s.notRun[st.id] ??
      (s.stopped
        ? `left: ${s.stopped.message}`
        : s.failure
          ? 'the run stopped before it'
          : s.matched
            ? 'not run'
            : 'the event did not match');
    return { stepId: st.id, status: 'not_run' as const, detail: short(why) };
  });
}

/** A run's summary in words: what it did and what it did not, and why. */
/** How often a call in flight looks whether its run was cancelled (a look at a set in memory). */
const CANCEL_POLL_MS = 100;

export function summaryOf(s: RunStateT): string {
  const name = s.workflow?.name ?? s.workflowId;
  if (!s.matched) return `${name}: the event does not match the trigger's filters; nothing was done.`;
  const lines = stepOutcomes(s).map((o) => {
    const step = s.workflow?.steps.find((st) => st.id === o.stepId);
    return `- ${o.stepId} (${step?.capabilityId ?? '?'}): ${o.status.replace('_', ' ')}${o.detail ? ` — ${o.detail}` : ''}`;
  });
  const head = s.failure
    ? `${name} failed (${s.failure.code}): ${s.failure.message}`
    : s.stopped?.code === 'cancelled'
      ? `${name} was cancelled while it ran: what it did stands, steps not run were not made, and a step stopped while it was called may or may not have acted.`
      : s.stopped
        ? `${name} completed early (${s.stopped.code}): ${s.stopped.message}. Steps not run are left to do.`
        : `${name} completed.`;
  return [head, ...lines].join('\n').slice(0, 19_000);
}

export function buildRuntimeGraph(options: RuntimeOptions) {
  const { specs, tools } = options;
  const parallelism = Math.max(1, options.parallelism ?? 4);
  const clock = options.clock ?? systemClock;
  const capsOf = (s: RunStateT) => tools.capabilities(s.orgId);

  const classify = async (s: RunStateT): Promise<RunUpdate> => {
    const events = [enter('classify')];
    const spec = await specs.load(s.employeeId, s.orgId);
    if (!spec) {
      const failure = { code: 'unknown_employee', message: `no employee ${s.employeeId} in this org` };
      return { events, failure, phase: 'classify', progress: 10 };
    }
    const workflow = spec.workflows.find((w) => w.id === s.workflowId);
    if (!workflow) {
      const failure = { code: 'unknown_workflow', message: `${spec.name} has no workflow ${s.workflowId}` };
      return { events, failure, phase: 'classify', progress: 10 };
    }
    const matched = eventMatches(workflow.trigger.params, s.event);
    // the lower of the spec's budget and the org policy's: an admin's limit holds over every employee
    const orgBudgets = (await tools.policy(s.orgId)).budgets ?? {};
    const maxToolCalls = lowerOf(spec.compiled?.budgets?.maxToolCalls, orgBudgets.maxToolCalls);
    const maxSteps = lowerOf(spec.compiled?.budgets?.maxSteps, orgBudgets.maxSteps);
    return {
      events,
      matched,
      workflow: {
        id: workflow.id,
        name: workflow.name,
        triggerId: workflow.trigger.triggerId,
        params: workflow.trigger.params,
        steps: workflow.steps,
        ...(maxToolCalls ? { maxToolCalls } : {}),
        ...(maxSteps ? { maxSteps } : {}),
      },
      phase: 'classify',
      progress: 10,
    };
  };

  const plan = async (s: RunStateT): Promise<RunUpdate> => {
    const steps = s.workflow?.steps ?? [];
    const events = [enter('plan')];
    try {
      batches(steps);
    } catch (error) {
      return { events, failure: { code: 'invalid_spec', message: short((error as Error).message) }, phase: 'plan' };
    }
    const caps = await capsOf(s);
    const unknown = steps.find((st) => !caps.has(st.capabilityId));
    if (unknown)
      return {
        events,
        failure: { code: 'unknown_capability', message: `${unknown.capabilityId} (step ${unknown.id}) is not in the catalog` },
        phase: 'plan',
      };
    const { planned, notRun } = planSteps(steps, s.event);
    const policy = await tools.policy(s.orgId);
    const refusedOutright = await tools.outrightRefusals(s.orgId, policy);
    // a step the run will make that the org refuses whatever a person says — its provider not connected (disconnected
    // since activation), or the org's policy denying the tool or, as far as the event says its arguments, their values:
    // the run is refused before it acts, not halfway through (a refund made, then no reply to the ticket it came from)
    const refused = steps
      .filter((st) => planned.includes(st.id))
      .map((st) => {
        const capability = caps.get(st.capabilityId) as CatalogCapability;
        const args = previewArgs(st, capability, s.event, s.answers);
        return { st, args, refused: refusedOutright(capability, args) };
      })
      .find(({ refused }) => refused !== undefined);
    if (refused?.refused) {
      const { st, args, refused: refusal } = refused;
      // (recorded as its effect, refused, with the event that says why: the timeline and effects tell it as any refusal)
      const effect = await tools.record(s, st, args, 'failed', refusal);
      events.push(eventOf(effect));
      const why =
        refusal.code === 'scope_denied'
          ? `would need what the org has not connected (${refusal.message})`
          : `is refused by the org's policy (${refusal.message})`;
      return {
        events,
        failure: { code: refusal.code, message: short(`step ${st.id} ${why}; nothing was done`) },
        phase: 'plan',
      };
    }
    const missing = missingInputs(steps, planned, caps, s.event, s.answers);
    const approvals: RunStateT['approvals'] = {};
    const refusals: RunStateT['refusals'] = {};
    // quiet hours that ask for approval: a step high-risk by the catalog is approved by a person, whatever the spec says
    const now = clock.now();
    const quietApprovals = steps
      .filter((st) => st.risk !== 'high' && planned.includes(st.id))
      .filter((st) => approvalInQuietHours(policy, caps.get(st.capabilityId) as CatalogCapability, now))
      .map((st) => st.id);
    for (const st of steps) {
      if ((st.risk !== 'high' && !quietApprovals.includes(st.id)) || !planned.includes(st.id)) continue;
      events.push({ key: `approval_requested:${st.id}`, event: 'approval_requested', stepId: st.id, detail: st.capabilityId });
    }
    return { events, planned, notRun, missing, approvals, refusals, quietApprovals, phase: 'plan', progress: 20 };
  };

  /** confirm, part one: ONE questions prompt for every input asked at run time or resolved to nothing. */
  const askInputs = async (s: RunStateT): Promise<RunUpdate> => {
    const batch = s.missing.slice(0, QUESTIONS_PER_PROMPT);
    const answer = ask({
      kind: 'questions',
      messages: [
        `${s.workflow?.name ?? 'This run'} needs ${batch.length === 1 ? 'one input' : `${batch.length} inputs`} before it can go on.`,
      ],
      questions: batch.map((m) => ({
        id: m.id,
        text: m.text,
        required: true,
        ...(m.exampleAnswer !== undefined ? { exampleAnswer: m.exampleAnswer } : {}),
      })),
      progress: 30,
    });
    const given = Object.fromEntries(Object.entries(answersOf(answer)).filter(([, v]) => v.trim() !== ''));
    const all = { ...s.answers, ...given };
    const caps = await capsOf(s);
    const missing = missingInputs(s.workflow?.steps ?? [], s.planned, caps, s.event, all);
    return {
      events: [enter('ask_inputs', `:${Object.keys(all).length}`)],
      answers: given,
      missing,
      phase: 'confirm',
      progress: 30,
    };
  };

  /** confirm, part two: one approve / reject prompt per high-risk step, one step per pass. */
  const approve = async (s: RunStateT): Promise<RunUpdate> => {
    const step = awaitingApproval(s);
    if (!step) return {};
    const caps = await capsOf(s);
    const preview = previewArgs(step, caps.get(step.capabilityId), s.event, s.answers);
    const answer = ask({
      kind: 'options',
      messages: [
        `Approve step ${step.id} of ${s.workflow?.name ?? 'this run'}: ${step.capabilityId}?`,
        ...(s.quietApprovals.includes(step.id)
          ? [`It is inside the org's quiet hours, when ${step.capabilityId} (high-risk) runs only with a person's approval.`]
          : []),
        step.purpose,
        `Arguments: ${JSON.stringify(preview, null, 2)}`.slice(0, 4000),
      ],
      options: [
        { id: 'approve', label: 'Approve', description: `run ${step.capabilityId} with these arguments` },
        { id: 'reject', label: 'Reject', description: 'skip this step' },
      ],
      selectionRules: { mode: 'single', min: 1, max: 1 },
      progress: 40,
    });
    const approved = selected(answer).includes('approve');
    const events: NodeEvent[] = [enter('approve', `:${step.id}`)];
    if (approved) {
      events.push({ key: `approval:${step.id}`, event: 'approval_granted', stepId: step.id, detail: step.capabilityId });
    } else {
      // recorded once (an upsert): the effects list shows the rejected call with its arguments
      const { args } = resolveArgs(step, caps.get(step.capabilityId), { event: s.event, outputs: {} }, s.answers);
      const effect = await tools.record(s, step, args, 'rejected', { code: 'rejected', message: 'rejected by the approver' });
      events.push({ key: `approval:${step.id}`, event: 'approval_rejected', stepId: step.id, reason: 'rejected', effect });
    }
    return { events, approvals: { [step.id]: approved ? 'approved' : 'rejected' }, phase: 'confirm', progress: 40 };
  };

  const execute = async (s: RunStateT): Promise<RunUpdate> => {
    const steps = s.workflow?.steps ?? [];
    const byId = new Map(steps.map((st) => [st.id, st]));
    const caps = await capsOf(s);
    const done: Record<string, StepDone> = {};
    const events: NodeEvent[] = [enter('execute')];
    const outputs = () => Object.fromEntries(Object.entries(done).map(([id, d]) => [id, d.output]));
    const skip = async (step: Step, code: string, why: string, args: Record<string, unknown> = {}) => {
      done[step.id] = { status: 'not_run', detail: why, ...(code === 'condition_false' ? { branchNotTaken: true } : {}) };
      const effect = await tools.record(s, step, args, 'skipped', { code, message: why });
      events.push({ key: `skipped:${step.id}`, event: 'progress', stepId: step.id, reason: code, detail: short(why), effect });
    };
    let failure: RunStateT['failure'] = null;
    let stopped: RunStateT['stopped'] = null;
    let deferred: RunStateT['deferred'] = null;
    const refusedOutright = await tools.outrightRefusals(s.orgId);
    let budget = s.workflow?.maxToolCalls ?? Number.POSITIVE_INFINITY;
    let stepsLeft = s.workflow?.maxSteps ?? Number.POSITIVE_INFINITY;
    // at a limit the run stops calling tools and completes, saying what it did and what is left (§12)
    const stop = (step: Step, what: string, limit: number | undefined) => {
      done[step.id] = { status: 'not_run', detail: `the run reached its budget of ${what}` };
      events.push({
        key: `budget:${step.id}`,
        event: 'budget_exceeded',
        stepId: step.id,
        reason: 'budget_exceeded',
        detail: what,
      });
      stopped = { code: 'budget_exceeded', message: `the budget of ${limit} ${what} is spent` };
    };

    for (const batch of batches(steps)) {
      // a cancel that came while the run acts: no further step is called, and the summary says what was done
      if (options.cancelRequested?.(s.executionId)) {
        for (const id of batch) done[id] = { status: 'not_run', detail: 'the run was cancelled before it' };
        stopped = { code: 'cancelled', message: 'the run was cancelled while it ran' };
        break;
      }
      const calls: { step: Step; args: Record<string, unknown>; left: number }[] = [];
      for (const id of batch) {
        const step = byId.get(id) as Step;
        if (failure || stopped) break;
        if (s.notRun[id]) {
          await skip(step, 'condition_false', s.notRun[id] as string);
          continue;
        }
        if (s.approvals[id] === 'rejected') {
          done[id] = { status: 'rejected', detail: 'rejected by the approver' };
          continue;
        }
        const refusal = s.approvals[id] === 'moot' ? s.refusals[id] : undefined;
        if (refusal) {
          // refused when the run was planned, so nobody was asked: never called, whatever the policy says now
          const { args } = resolveArgs(step, caps.get(step.capabilityId), { event: s.event, outputs: outputs() }, s.answers);
          const effect = await tools.record(s, step, args, 'failed', refusal);
          done[id] = { status: 'failed', detail: refusal.message };
          events.push(eventOf(effect));
          failure = { code: refusal.code, message: short(`step ${id}: ${refusal.code}: ${refusal.message}`) };
          break;
        }
        // a dependency on a branch not taken (its condition did not hold) is met; one that failed, was
        // rejected or could not run blocks the step
        const blocked = dependenciesOf(step).find((d) => done[d]?.status !== 'succeeded' && !done[d]?.branchNotTaken);
        if (blocked) {
          await skip(step, 'dependency_not_run', `it depends on ${blocked}, which did not succeed`);
          continue;
        }
        const sources = { event: s.event, outputs: outputs() };
        if (!holds(step.when, sources)) {
          await skip(step, 'condition_false', 'its condition does not hold');
          continue;
        }
        // a step counts against the budget of steps when it would act: one skipped, rejected or off its branch does not
        if (stepsLeft <= 0) {
          stop(step, 'steps', s.workflow?.maxSteps);
          break;
        }
        stepsLeft -= 1;
        const capability = caps.get(step.capabilityId) as CatalogCapability;
        const { args, unresolved } = resolveArgs(step, capability, sources, s.answers);
        const required = unresolved.filter((i) => capability.inputSchema.required.includes(i));
        if (required.length) {
          done[id] = { status: 'failed', detail: `required input(s) resolved to nothing: ${required.join(', ')}` };
          failure = { code: 'input_unresolved', message: `step ${id}: ${required.join(', ')} resolved to nothing` };
          break;
        }
        // a call the org refuses (scope, policy) reaches no tool: the rails refuse it before the budget, and it spends none (§12's order)
        if (refusedOutright(capability, args)) {
          calls.push({ step, args, left: budget });
          continue;
        }
        if (budget <= 0) {
          stop(step, 'tool calls', s.workflow?.maxToolCalls);
          break;
        }
        // a step that needs a person's approval is called only with it: one nobody was asked about (past the run's
        // budget when approvals were asked, and within it after a call the rails refused) is not called unapproved
        if (needsApproval(s, step) && s.approvals[id] !== 'approved') {
          stepsLeft += 1;
          await skip(step, 'not_approved', 'nobody approved it: it lay past the run’s budget when approvals were asked');
          continue;
        }
        budget -= 1;
        calls.push({ step, args, left: budget + 1 });
      }
      if ((failure || stopped) && calls.length === 0) break;
      const results = await mapCapped(calls, parallelism, async ({ step, args, left }) => {
        // a cancel that comes while the call is made stops it: the call in flight is abandoned and not tried again
        const cancel = new AbortController();
        const watch = options.cancelRequested
          ? setInterval(() => options.cancelRequested?.(s.executionId) && cancel.abort(), CANCEL_POLL_MS)
          : undefined;
        const ctx = {
          executionId: s.executionId,
          orgId: s.orgId,
          approved: s.approvals[step.id] === 'approved',
          signal: cancel.signal,
          ...(Number.isFinite(left) ? { toolCallsLeft: left } : {}),
        };
        const result = await tools.call(ctx, step, args).finally(() => clearInterval(watch));
        // a refused call reached no provider: its tool_failed event carries the reason, no tool_called
        if (!result.refused)
          events.push({ key: `tool_called:${step.id}`, event: 'tool_called', stepId: step.id, detail: step.capabilityId });
        return result;
      });
      for (const { effect } of results) {
        const ok = effect.status === 'succeeded';
        if (effect.error?.code === 'cancelled') {
          // (the request may have reached the provider: what it did is not known, so the step is no "not run")
          done[effect.stepId] = {
            status: 'failed',
            detail: `stopped while it was called, the run cancelled: whether ${effect.capabilityId} acted is not known`,
          };
          events.push(eventOf(effect));
          stopped = { code: 'cancelled', message: 'the run was cancelled while it ran' };
          continue;
        }
        done[effect.stepId] = ok
          ? { status: 'succeeded', ...(effect.output ? { output: effect.output } : {}) }
          : { status: 'failed', detail: effect.error?.message ?? 'failed' };
        const deferral = ok ? undefined : deferralOf(await tools.policy(s.orgId), effect.error?.code, clock.now());
        if (deferral) {
          // quiet hours that defer: the step waits for their end, then execute runs again (steps done
          // already return their recorded effects and act no second time)
          const until = deferral.until.toISOString();
          done[effect.stepId] = { status: 'not_run', detail: `deferred by the org's quiet hours until ${until}` };
          events.push({
            key: `deferred:${effect.stepId}:${until}`,
            event: 'step_deferred',
            stepId: effect.stepId,
            reason: 'quiet_hours',
            deadline: until,
            detail: short(effect.error?.message ?? 'quiet hours'),
          });
          deferred ??= { stepId: effect.stepId, until, message: effect.error?.message ?? 'quiet hours' };
          continue;
        }
        events.push(eventOf(effect));
        if (!ok && !failure) {
          // a rail's refusal names itself (policy_denied, circuit_open, …); a call that failed is tool_failed
          const code = effect.error?.code ?? '';
          const refused = (RefusalCodes as readonly string[]).includes(code);
          failure = {
            code: refused ? code : 'tool_failed',
            message: short(`step ${effect.stepId}: ${code}: ${effect.error?.message}`),
          };
        }
      }
      if (failure || stopped || deferred) break;
    }
    // a cancel that came during the last calls: what was done stands, and the run says it was cancelled
    if (!failure && !stopped && options.cancelRequested?.(s.executionId))
      stopped = { code: 'cancelled', message: 'the run was cancelled while it ran' };
    if (deferred && !failure) return { events, done, deferred, phase: 'deferred', progress: 60 };
    return { events, done, ...(failure ? { failure } : {}), ...(stopped ? { stopped } : {}), phase: 'execute', progress: 90 };
  };

  /** Waits for the end of the quiet hours that deferred a step (the runner resumes it then), and goes back to execute. */
  const wait = async (s: RunStateT): Promise<RunUpdate> => {
    const deferral = s.deferred;
    if (!deferral) return {};
    interrupt<WaitSpec, unknown>({ waitUntil: deferral.until, reason: `quiet_hours: ${deferral.stepId}` });
    return {
      events: [
        // (entered as every other node is: the timeline's node_exit of "wait" has its node_enter)
        enter('wait', `:${deferral.stepId}:${deferral.until}`),
        {
          key: `resumed:${deferral.stepId}:${deferral.until}`,
          event: 'step_resumed',
          stepId: deferral.stepId,
          reason: 'quiet_hours',
        },
      ],
      deferred: null,
      phase: 'execute',
      progress: 60,
    };
  };

  const summarize = async (): Promise<RunUpdate> => ({ events: [enter('summarize')], phase: 'done', progress: 100 });
  const fallback = async (): Promise<RunUpdate> => ({ events: [enter('fallback')], phase: 'failed', progress: 100 });

  return new StateGraph(RunState)
    .addNode('classify', classify)
    .addNode('plan', plan)
    .addNode('ask_inputs', askInputs)
    .addNode('approve', approve)
    .addNode('execute', execute)
    .addNode('summarize', summarize)
    .addNode('fallback', fallback)
    .addNode('wait', wait)
    .addEdge(START, 'classify')
    .addConditionalEdges('classify', (s) => (s.failure ? 'fallback' : s.matched ? 'plan' : 'summarize'), [
      'fallback',
      'plan',
      'summarize',
    ])
    .addConditionalEdges('plan', (s) => (s.failure ? 'fallback' : confirmStep(s)), [
      'fallback',
      'ask_inputs',
      'approve',
      'execute',
    ])
    .addConditionalEdges('ask_inputs', confirmStep, ['ask_inputs', 'approve', 'execute'])
    .addConditionalEdges('approve', confirmStep, ['ask_inputs', 'approve', 'execute'])
    .addConditionalEdges('execute', (s) => (s.failure ? 'fallback' : s.deferred ? 'wait' : 'summarize'), [
      'fallback',
      'wait',
      'summarize',
    ])
    .addEdge('wait', 'execute')
    .addEdge('summarize', END)
    .addEdge('fallback', END);
}

/** What confirm does next: ask for inputs, ask an approval, or go. */
const confirmStep = (s: RunStateT): 'ask_inputs' | 'approve' | 'execute' =>
  s.missing.length > 0 ? 'ask_inputs' : awaitingApproval(s) ? 'approve' : 'execute';

const eventOf = (effect: Effect): NodeEvent =>
  effect.status === 'succeeded'
    ? { key: `tool_result:${effect.stepId}`, event: 'tool_succeeded', stepId: effect.stepId, effect }
    : {
        key: `tool_result:${effect.stepId}`,
        event: 'tool_failed',
        stepId: effect.stepId,
        reason: effect.error?.code ?? 'tool_failed',
        effect,
      };
