import { randomUUID } from 'node:crypto';
import { makeFact } from '@hireloop/fact-stream';
import type { Clock } from '@hireloop/platform';
import {
  type AnyFact,
  type EmployeeGraphSpec,
  type FactOf,
  type FactType,
  inputSchemaJson,
  type OrgPolicy,
  type Step,
  topicOf,
  type Workflow,
} from '@hireloop/schemas';
import { fold, type Projection, type Recorded } from '../src';

/** A clock that moves one millisecond per reading, from a fixed instant: facts get distinct, ordered `ts`. */
export function steppingClock(start = Date.parse('2026-11-22T10:00:00.000Z')): Clock {
  let now = start;
  return { now: () => new Date(now++) };
}

/** A step of a workflow: `capabilityId` called with no inputs, low risk, first (override any of it). */
export const step = (id: string, capabilityId: string, over: Partial<Step> = {}): Step => ({
  id,
  capabilityId,
  purpose: 'reply',
  inputs: {},
  risk: 'low',
  dependsOn: [],
  ...over,
});

/** A workflow started by `triggerId` (with `params`) whose one step replies to the ticket, unless `over` says otherwise. */
export const workflow = (
  id: string,
  triggerId: string,
  over: Partial<Omit<Workflow, 'trigger'>> & { params?: Record<string, unknown> } = {},
): Workflow => {
  const { params = {}, ...rest } = over;
  return {
    id,
    name: id,
    description: `${id} workflow`,
    trigger: { triggerId, params },
    steps: [step('s1', 'zendesk.reply_ticket')],
    behaviourPrompt: 'be kind',
    ...rest,
  };
};

/** A registered employee's spec; its tools are the capabilities its workflows' steps call. */
export function employeeSpec(
  orgId: string,
  name: string,
  employeeId: string = randomUUID(),
  workflows: Workflow[] = [workflow('wf-1', 'zendesk.new_ticket', { name: 'triage', description: 'triage new tickets' })],
  jobDescription = `${name}: answers support tickets and escalates the hard ones`,
): EmployeeGraphSpec {
  return {
    employeeId,
    orgId,
    name,
    version: 1,
    jobDescription,
    workflows,
    gaps: [],
    compiled: {
      nodes: [{ id: 'start', kind: 'start', reads: [], writes: [] }],
      edges: [],
      stateSchema: {},
      tools: [...new Set(workflows.flatMap((w) => w.steps.map((s) => s.capabilityId)))],
      budgets: { maxSteps: 10, maxToolCalls: 10, timeoutSeconds: 60 },
      interruptPoints: [],
    },
    validation: { passed: true, checks: [] },
    diagram: 'graph TD; start-->end',
    history: { iterations: 1, promptsAsked: 1, routingTrace: [] },
  };
}

export interface ExecutionScript {
  orgId: string;
  userId: string;
  conversationId: string;
  executionId: string;
  employeeId: string;
  triggerId: string;
}

export function script(overrides: Partial<ExecutionScript> = {}): ExecutionScript {
  const executionId = overrides.executionId ?? randomUUID();
  return {
    orgId: 'acme',
    userId: 'u-1',
    conversationId: `conv-${executionId.slice(0, 8)}`,
    employeeId: randomUUID(),
    triggerId: `trg-${executionId.slice(0, 8)}`,
    executionId,
    ...overrides,
  };
}

/** Builds the facts of one execution, as the services would publish them. */
export function factsFor(s: ExecutionScript, clock: Clock = steppingClock()) {
  const correlation = { conversationId: s.conversationId, userId: s.userId, executionId: s.executionId, triggerId: s.triggerId };
  const ctx = { orgId: s.orgId, correlation };
  const deps = { clock };
  return {
    uiMessage: (content = 'I need a support agent') =>
      makeFact(
        'UIMessage',
        { orgId: s.orgId, correlation: { conversationId: s.conversationId, userId: s.userId } },
        { conversationId: s.conversationId, userId: s.userId, role: 'user', content },
        deps,
      ),
    trigger: () =>
      makeFact(
        'TriggerCreated',
        { orgId: s.orgId, correlation: { conversationId: s.conversationId, userId: s.userId, triggerId: s.triggerId } },
        { triggerId: s.triggerId, triggerType: 'create_graph', payload: { jobDescription: 'a support agent' }, source: 'chat' },
        deps,
      ),
    start: () =>
      makeFact(
        'RunIntent',
        ctx,
        {
          executionId: s.executionId,
          employeeId: s.employeeId,
          action: 'start',
          trigger: { triggerId: s.triggerId, triggerType: 'create_graph', payload: { jobDescription: 'a support agent' } },
        },
        deps,
      ),
    cancel: () =>
      makeFact(
        'RunIntent',
        ctx,
        {
          executionId: s.executionId,
          employeeId: s.employeeId,
          action: 'cancel',
          trigger: { triggerId: `${s.triggerId}-c`, triggerType: 'cancel_execution', payload: { executionId: s.executionId } },
          reason: 'requested',
        },
        deps,
      ),
    prompt: (promptId: string, progress?: number): FactOf<'HILPrompt'> => {
      const shape = {
        kind: 'options' as const,
        options: [
          { id: 'a', label: 'Option A' },
          { id: 'b', label: 'Option B' },
        ],
        selectionRules: { mode: 'single' as const },
      };
      return makeFact(
        'HILPrompt',
        ctx,
        {
          executionId: s.executionId,
          promptId,
          messages: [`Pick one (${promptId})`],
          inputSchema: inputSchemaJson(shape),
          ...shape,
          ...(progress !== undefined ? { progress } : {}),
        },
        deps,
      );
    },
    answer: (promptId: string, selected = ['a']) =>
      makeFact('HILResponse', ctx, { executionId: s.executionId, promptId, kind: 'options', payload: { selected } }, deps),
    event: (phase?: string, progress?: number) =>
      makeFact(
        'ExecutionEvent',
        ctx,
        {
          executionId: s.executionId,
          event: phase !== undefined ? 'phase' : 'progress',
          ...(phase !== undefined ? { phase } : {}),
          ...(progress !== undefined ? { progress } : {}),
        },
        deps,
      ),
    /** the supervisor's word: the request waits for a slot (ticket: the queue's order) */
    queued: (ticket: number, position = 1) =>
      makeFact('ExecutionEvent', ctx, { executionId: s.executionId, event: 'queued', phase: 'queued', position, ticket }, deps),
    started: () => makeFact('ExecutionEvent', ctx, { executionId: s.executionId, event: 'started', phase: 'starting' }, deps),
    completed: (name = 'Support agent', employeeId: string = randomUUID()) =>
      makeFact(
        'ExecutionResult',
        ctx,
        {
          executionId: s.executionId,
          status: 'completed',
          output: { employee: employeeSpec(s.orgId, name, employeeId), summary: 'done' },
        },
        deps,
      ),
    failed: (code = 'ANALYST_DOWN') =>
      makeFact(
        'ExecutionResult',
        ctx,
        { executionId: s.executionId, status: 'failed', error: { code, message: 'it broke' } },
        deps,
      ),
    cancelled: () => makeFact('ExecutionResult', ctx, { executionId: s.executionId, status: 'cancelled' }, deps),
  };
}

/** A whole creation: chat line, trigger, start, two prompts answered, events, completion. */
export function creation(s: ExecutionScript, clock: Clock = steppingClock(), name = 'Support agent'): AnyFact[] {
  const f = factsFor(s, clock);
  return [
    f.uiMessage(),
    f.trigger(),
    f.start(),
    f.event('analysis', 10),
    f.prompt(`${s.executionId}-p1`, 30),
    f.answer(`${s.executionId}-p1`),
    f.event('matching', 50),
    f.prompt(`${s.executionId}-p2`, 70),
    f.answer(`${s.executionId}-p2`, ['b']),
    f.event('assembly', 100),
    f.completed(name),
  ];
}

let offset = 0;
/** A delivery as the consumer would hand it over (topic without prefix, made-up partition and offset). */
export const recorded = (fact: AnyFact, prefix = ''): Recorded => ({
  fact,
  topic: `${prefix}${topicOf(fact.type).name}`,
  partition: 0,
  offset: String(offset++),
  headers: { factType: fact.type },
});

/** The facts of a registered employee's lifecycle and of its runs' effects. */
export function employeeFacts(orgId: string, employeeId: string, clock: Clock = steppingClock(), userId = 'u-1') {
  const deps = { clock };
  return {
    activated: (
      workflows: FactOf<'EmployeeActivated'>['workflows'] = [
        { workflowId: 'wf-1', triggerId: 'zendesk.new_ticket', status: 'on' },
      ],
    ) =>
      makeFact(
        'EmployeeActivated',
        { orgId, correlation: { userId } },
        { employeeId, version: 1, activationId: randomUUID(), workflows },
        deps,
      ),
    deactivated: () => makeFact('EmployeeDeactivated', { orgId, correlation: { userId } }, { employeeId, version: 1 }, deps),
    /** a tool event of a run carrying the effect of one call */
    effect: (
      executionId: string,
      stepId: string,
      status: 'succeeded' | 'failed' | 'skipped' | 'rejected',
      output?: Record<string, unknown>,
    ): FactOf<'ExecutionEvent'> => {
      const at = clock.now().toISOString();
      return makeFact(
        'ExecutionEvent',
        { orgId, correlation: { executionId } },
        {
          executionId,
          event: status === 'failed' ? 'tool_failed' : 'tool_succeeded',
          stepId,
          effect: {
            stepId,
            capabilityId: 'zendesk.reply_ticket',
            args: { ticketId: 7, body: 'hello' },
            idempotencyKey: `${executionId}/${stepId}/abc123`,
            status,
            ...(output ? { output } : {}),
            ...(status === 'failed' ? { error: { code: 'tool_failed', message: 'zendesk said no' } } : {}),
            at,
          },
        },
        deps,
      );
    },
  };
}

/** given these facts (in this order, seq 1, 2, …), the state of `key` in the projection */
export function given<S, T extends FactType>(projection: Projection<S, T>, facts: AnyFact[], key: string): S | null {
  const states = new Map<string, S>();
  fold(
    projection,
    states,
    facts.map((fact, i) => ({ fact, seq: i + 1 })),
  );
  return states.get(key) ?? null;
}

/** An admin's new policy for the org's tool calls. */
export const policyChanged = (orgId: string, policy: OrgPolicy, clock: Clock = steppingClock(), userId = 'admin-1') =>
  makeFact('PolicyChanged', { orgId, correlation: { userId } }, { policy, changedBy: userId }, { clock });
