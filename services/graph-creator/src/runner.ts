import type { FactPublisher } from '@hireloop/fact-stream';
import { causedBy, type FactBody, makeFact } from '@hireloop/fact-stream';
import {
  type Clock,
  derivedId,
  type Logger,
  type Pool,
  type PoolClient,
  statementNames,
  systemClock,
  type WorkerHandled,
  type WorkerStage,
} from '@hireloop/platform';
import {
  type AnyFact,
  checkAnswer,
  describeErrors,
  type ExecutionResult,
  type FactOf,
  type HILResponse,
  inputSchemaJson,
  type RunIntent,
} from '@hireloop/schemas';
import { Command } from '@langchain/langgraph';
import { type Faults, noFaults } from './faults';
import {
  type CheckpointView,
  CREATOR_ID,
  type ExecutionRow,
  judgeAnswer,
  nodePath,
  type Pending,
  pendingOf,
  phaseProgress,
  wakeDecision,
  whereItStands,
} from './runner-decisions';

/** The part of a compiled LangGraph graph the runner uses. */
export interface RunnableGraph {
  stream(input: unknown, config: Record<string, unknown>): Promise<AsyncIterable<unknown>>;
  getState(config: { configurable: { thread_id: string } }): Promise<CheckpointView & { values: unknown }>;
}

/** How a graph ended, in ExecutionResult terms. */
export type Outcome = { status: ExecutionResult['status'] } & Pick<ExecutionResult, 'output' | 'error'>;

/** An ExecutionEvent a node asks for; `key` is unique within the execution (the fact id derives from it). */
export type NodeEvent = { key: string } & Omit<FactBody<'ExecutionEvent'>, 'executionId'>;

/** What differs between graphs: how a trigger becomes input, and how a finished state becomes a result. */
export interface GraphAdapter<S> {
  graph: RunnableGraph;
  input(intent: RunIntent): Record<string, unknown>;
  outcome(values: S): Outcome;
  status(values: S): { phase?: string; progress?: number };
  /** the events a node's update asks to publish (a run's tool calls, approvals) */
  events?(update: unknown): NodeEvent[];
  /** who answers the execution's prompts when the RunIntent names nobody (a run: the employee's owner) */
  owner?(intent: RunIntent): Promise<string | undefined>;
  /** things worth an ExecutionEvent of their own, in order (e.g. an analyst fallback); published once each */
  notices?(values: S): { event: 'analyst_fallback'; detail: string }[];
  /**
   * `node`: a `node_exit` event per node that ran (a run's timeline, §11); `run`: the nodes a run went
   * through ride, in order, on the one `phase` event that ends it (docs/decisions.md, 2026-11-24)
   */
  timeline?: 'node' | 'run';
  /**
   * Where a run stopped is read from the run's own stream (its last values and its interrupt) rather
   * than from the checkpoint again: only for graphs whose interrupting nodes never run beside another
   * node in one superstep (the creation graph's ask_human and review). Otherwise, or when the stream
   * shows more than one interrupt or no values, the checkpoint is read (docs/decisions.md, 2026-11-24).
   */
  stateFromStream?: boolean;
}

export interface RunnerDeps<S, R = unknown> {
  /** the creation graph: executions of `graph-creator` */
  adapter: GraphAdapter<S>;
  /** the runtime graph: executions of every other employee; absent, every execution runs `adapter` */
  runtime?: GraphAdapter<R>;
  pool: Pool;
  publisher: FactPublisher;
  log: Logger;
  clock?: Clock;
  /** LangGraph durability: `exit` writes when the run stops at an interrupt or ends (ARCHITECTURE §5, §10) */
  durability?: 'exit' | 'sync' | 'async';
  /** named moments where a chaos test has the worker kill itself (off by default) */
  faults?: Faults;
  /**
   * The checkpointer's `holding` (platform's HireloopSaver): under the execution's lock, the pending
   * check and the run that follows it read the thread's checkpoint once (docs/decisions.md, 2026-11-24)
   */
  checkpoints?: { holding<T>(threadId: string, fn: () => Promise<T>): Promise<T> };
  /** where a start's or an answer's time goes, stage by stage (platform's `workerStageMetrics`) */
  observe?: (handled: WorkerHandled, stage: WorkerStage, seconds: number) => void;
  /**
   * Cancels asked for while the execution is being advanced, shared with the runtime graph (whose execute node
   * calls no further step once its execution is in it) — absent, the runner keeps its own
   */
  cancels?: Set<string>;
}

/**
 * One delivery's way through the stages: each mark holds the time since the mark before it, and all are
 * observed once it is published, so that every stage's figures cover the same deliveries (one that is
 * ignored, fails or only says again where it stands is not counted).
 */
class Stages {
  private last = performance.now();
  private readonly marks: [WorkerStage, number][] = [];

  constructor(
    private readonly observe: NonNullable<RunnerDeps<unknown>['observe']>,
    private readonly handled: WorkerHandled,
    /** when the fact was published (epoch ms), if known: the first stage is `delivered`, from then */
    publishedAt?: number,
  ) {
    if (publishedAt !== undefined) this.marks.push(['delivered', Math.max(0, Date.now() - publishedAt) / 1000]);
  }

  mark(stage: WorkerStage): void {
    const now = performance.now();
    this.marks.push([stage, (now - this.last) / 1000]);
    this.last = now;
    if (stage === 'published') for (const [name, seconds] of this.marks) this.observe(this.handled, name, seconds);
  }
}

/** How a cancelled execution reads: the reason the supervisor gave, as a code, and what it means. */
export function cancelError(reason: RunIntent['reason']): NonNullable<ExecutionResult['error']> {
  switch (reason) {
    case 'timeout':
      return { code: 'timeout', message: 'cancelled: its prompt waited past its deadline without an answer' };
    case 'open_limit':
      return {
        code: 'open_limit',
        message: 'not started: you have as many open conversations as one person may; cancel one and ask again',
      };
    case 'requested':
    case undefined:
      return { code: 'cancelled', message: 'cancelled' };
    default: {
      const unhandled: never = reason;
      throw new Error(`unknown cancel reason ${String(unhandled)}`);
    }
  }
}

type State = Awaited<ReturnType<RunnableGraph['getState']>>;

/**
 * Runs executions of LangGraph graphs under the exactly-once rules of ARCHITECTURE §5: a
 * per-execution advisory lock around every start/resume/cancel; resume only with
 * `Command({resume: {[promptId]: payload}})` after checking the prompt is pending; duplicates and
 * stale answers recorded without effect; the pending prompt (or the result) published again after
 * every delivery, with the same ids, so a crash between checkpoint and publish loses nothing.
 * The decisions are pure (runner-decisions.ts); this shell reads the row and the checkpoint state
 * once per delivery and publishes a run's events with what follows them in one `publishAll`.
 */
export class ExecutionRunner<S, R = unknown> {
  private readonly clock: Clock;
  private readonly cancels: Set<string>;
  private readonly durability: 'exit' | 'sync' | 'async';
  private readonly faults: Faults;
  private readonly queues = new Map<string, Promise<void>>();

  constructor(private readonly deps: RunnerDeps<S, R>) {
    this.clock = deps.clock ?? systemClock;
    this.cancels = deps.cancels ?? new Set();
    this.durability = deps.durability ?? 'exit';
    this.faults = deps.faults ?? noFaults;
  }

  /** The graph of an execution: the creation graph for `graph-creator`, the runtime graph for an employee. */
  private adapterOf(employeeId: string | null): GraphAdapter<unknown> {
    const runtime = this.deps.runtime as GraphAdapter<unknown> | undefined;
    if (runtime && employeeId !== null && employeeId !== CREATOR_ID) return runtime;
    return this.deps.adapter as GraphAdapter<unknown>;
  }

  /** `publishedAt`: when the RunIntent was published (epoch ms), for the `delivered` stage */
  async start(intent: RunIntent, traceparent?: string, publishedAt?: number): Promise<void> {
    const stages = this.stages('start', publishedAt);
    await this.withLock(intent.executionId, async (row) => {
      stages?.mark('locked');
      const adapter = this.adapterOf(intent.employeeId);
      if (row) {
        // A redelivered start: say again where it stands, or carry on a run cut off mid-way.
        await this.followUp(intent, row, await this.stateOf(adapter, intent.executionId), false, [], traceparent);
        return;
      }
      const owner = intent.correlation.userId ?? (await adapter.owner?.(intent)) ?? null;
      const inserted: ExecutionRow = {
        execution_id: intent.executionId,
        org_id: intent.orgId,
        owner_user_id: owner,
        conversation_id: intent.correlation.conversationId ?? null,
        status: 'running',
        employee_id: intent.employeeId,
      };
      await this.deps.pool.query(
        `INSERT INTO graph_executions (execution_id, org_id, owner_user_id, conversation_id, status, started_at, employee_id)
         VALUES ($1, $2, $3, $4, 'running', $5, $6)`,
        [inserted.execution_id, inserted.org_id, owner, inserted.conversation_id, intent.ts, intent.employeeId],
      );
      stages?.mark('read');
      await this.advance(intent, inserted, adapter.input(intent), traceparent, stages);
    });
  }

  /** `publishedAt`: when the HILResponse was published (epoch ms), for the `delivered` stage */
  async respond(response: HILResponse, traceparent?: string, publishedAt?: number): Promise<void> {
    const stages = this.stages('answer', publishedAt);
    await this.withLock(response.executionId, async (row) => {
      stages?.mark('locked');
      const adapter = this.adapterOf(row?.employee_id ?? null);
      const state = row?.status === 'running' ? await this.stateOf(adapter, response.executionId) : undefined;
      const verdict = judgeAnswer(row, state ? pendingOf(state) : [], {
        orgId: response.orgId,
        userId: response.correlation.userId,
        promptId: response.promptId,
      });
      if (verdict.verdict === 'ignore') {
        const ignored = this.ignored(response, verdict.reason);
        if (verdict.standing && row && state) return this.followUp(response, row, state, false, [ignored], traceparent);
        if (row && row.status !== 'running' && row.org_id === response.orgId) {
          // ended: its result again (the same id), for the delivery that ended it may have died, or
          // met the broker away, between recording the end and publishing the result
          const ended = await this.stateOf(adapter, response.executionId);
          return this.followUp(response, row, ended, false, [ignored], traceparent);
        }
        await this.deps.publisher.publish(ignored, { traceparent });
        return;
      }
      const check = checkAnswer(verdict.prompt.spec, response.payload);
      if (!check.ok && row && state) {
        // the supervisor gave the answer a slot: the prompt again tells it the execution still waits
        const reason = `answer breaks the prompt's input schema: ${describeErrors(check.errors)}`;
        return this.followUp(response, row, state, false, [this.ignored(response, reason)], traceparent);
      }
      this.faults.at('resume');
      stages?.mark('read');
      await this.advance(
        response,
        row as ExecutionRow,
        new Command({ resume: { [response.promptId]: response.payload } }),
        traceparent,
        stages,
      );
    });
  }

  async cancel(intent: RunIntent, traceparent?: string): Promise<void> {
    // said at once, before the lock: a run advancing under it calls no further step and ends cancelled
    this.cancels.add(intent.executionId);
    try {
      await this.cancelUnderLock(intent, traceparent);
    } finally {
      this.cancels.delete(intent.executionId);
    }
  }

  private async cancelUnderLock(intent: RunIntent, traceparent?: string): Promise<void> {
    await this.withLock(intent.executionId, async (row) => {
      if (row && row.status !== 'running') return;
      const now = this.clock.now().toISOString();
      await this.deps.pool.query(
        `INSERT INTO graph_executions (execution_id, org_id, owner_user_id, conversation_id, status, started_at, ended_at, employee_id)
         VALUES ($1, $2, $3, $4, 'cancelled', $5, $5, $6)
         ON CONFLICT (execution_id) DO UPDATE SET status = 'cancelled', ended_at = $5`,
        [
          intent.executionId,
          intent.orgId,
          intent.correlation.userId ?? null,
          intent.correlation.conversationId ?? null,
          now,
          intent.employeeId,
        ],
      );
      await this.deps.publisher.publish(this.cancelled(intent, intent.executionId), { traceparent });
    });
  }

  /**
   * Resumes the runs whose time has come (steps deferred by quiet hours), and those whose quiet hours the org has
   * lifted since, each under its lock; returns how many went on. Called every few seconds by each worker; the clock is the runner's.
   */
  async wakeDue(limit = 20): Promise<number> {
    const now = this.clock.now();
    // due, or deferred by quiet hours the org has since lifted: those go on now (a window moved or made to ask for
    // approval instead is weighed when the old one ends, as before)
    const { rows } = await this.deps.pool.query<{ execution_id: string; cause: RunIntent | HILResponse; lifted: boolean }>(
      `SELECT d.execution_id, d.cause, d.until > $1 AS lifted FROM deferred_runs d
         LEFT JOIN org_policies p ON p.org_id = d.org_id
        WHERE d.until <= $1 OR (p.org_id IS NOT NULL AND p.policy->'quietHours' IS NULL)
        ORDER BY d.until LIMIT $2`,
      [now.toISOString(), limit],
    );
    let woken = 0;
    for (const { execution_id: executionId, cause, lifted } of rows) {
      await this.withLock(executionId, async (row) => {
        const adapter = this.adapterOf(row?.employee_id ?? null);
        const standing = row
          ? whereItStands(row, await this.stateOf(adapter, executionId), false)
          : ({ kind: 'nothing' } as const);
        const decision = wakeDecision(standing, this.clock.now(), lifted);
        if ('keep' in decision) {
          // cancelled, ended or no longer waiting: forget it; waiting for later: keep it
          if (!decision.keep) await this.deps.pool.query('DELETE FROM deferred_runs WHERE execution_id = $1', [executionId]);
          return;
        }
        await this.deps.pool.query('DELETE FROM deferred_runs WHERE execution_id = $1', [executionId]);
        // the resumed run's facts get ids of their own (the cause's would be taken by the run before)
        const wake = { ...cause, id: derivedId(executionId, `wake:${decision.wake.waitUntil}`) };
        woken += 1;
        await this.advance(wake, row as ExecutionRow, new Command({ resume: { [decision.wake.interruptId]: true } }));
      });
    }
    return woken;
  }

  private stages(handled: WorkerHandled, publishedAt?: number): Stages | undefined {
    return this.deps.observe ? new Stages(this.deps.observe, handled, publishedAt) : undefined;
  }

  /** Runs the graph from `input` until it stops at an interrupt or ends, then publishes what follows. */
  private async advance(
    cause: RunIntent | HILResponse,
    row: ExecutionRow,
    input: unknown,
    traceparent?: string,
    stages?: Stages,
  ): Promise<void> {
    const executionId = cause.executionId;
    const adapter = this.adapterOf(row.employee_id);
    const events: FactOf<'ExecutionEvent'>[] = [];
    const perNode = adapter.timeline !== 'run';
    const fromStream = adapter.stateFromStream === true;
    const path: string[] = [];
    const interrupts: { id?: string; value?: unknown }[] = [];
    let values: unknown;
    let n = 0;
    try {
      // The stream ends only once the run's checkpoint is written (LangGraph awaits its checkpointer
      // before closing it, whatever the durability), so what it showed last is what the checkpoint holds.
      const stream = await adapter.graph.stream(input, {
        configurable: { thread_id: executionId },
        durability: this.durability,
        streamMode: fromStream ? ['updates', 'values'] : 'updates',
      });
      for await (const item of stream) {
        let chunk: unknown = item;
        if (fromStream) {
          const [mode, payload] = item as [string, unknown];
          if (mode === 'values') {
            if (payload && typeof payload === 'object' && !('__interrupt__' in payload)) values = payload;
            continue;
          }
          chunk = payload;
        }
        if (!chunk || typeof chunk !== 'object') continue;
        for (const [node, update] of Object.entries(chunk)) {
          if (node === '__interrupt__' && Array.isArray(update)) interrupts.push(...(update as typeof interrupts));
          if (node.startsWith('__')) continue;
          for (const { key, ...body } of adapter.events?.(update) ?? []) {
            events.push(this.caused('ExecutionEvent', cause, executionId, `${executionId}:${key}`, { executionId, ...body }));
          }
          if (!perNode) {
            path.push(node);
            continue;
          }
          events.push(
            this.caused('ExecutionEvent', cause, executionId, `${cause.id}:node:${n++}:${node}`, {
              executionId,
              event: 'node_exit',
              node,
            }),
          );
        }
        this.faults.at('node');
      }
    } catch (error) {
      this.deps.log.error({ err: error, executionId }, 'graph run failed');
      await this.finish(
        cause,
        executionId,
        'failed',
        { error: { code: 'graph_failed', message: String((error as Error).message).slice(0, 400) } },
        events,
        traceparent,
      );
      return;
    }
    const state: State =
      fromStream && values !== undefined && interrupts.length <= 1
        ? {
            values,
            next: interrupts.length > 0 ? ['(interrupted)'] : [],
            createdAt: 'the run just ended',
            tasks: interrupts.length > 0 ? [{ name: '(interrupted)', interrupts }] : [],
          }
        : await this.stateOf(adapter, executionId);
    const status = adapter.status(state.values);
    const progress = phaseProgress(status.progress, state);
    events.push(
      this.caused('ExecutionEvent', cause, executionId, `${cause.id}:phase`, {
        executionId,
        event: 'phase',
        ...status,
        ...(progress !== undefined ? { progress } : {}),
        ...(path.length > 0 ? { detail: nodePath(path) } : {}),
      }),
    );
    // each notice keeps its place in the state, so its id is the same whichever delivery publishes it
    (adapter.notices?.(state.values) ?? []).forEach((notice, i) => {
      events.push(
        this.caused('ExecutionEvent', cause, executionId, `${executionId}:notice:${i}`, {
          executionId,
          event: notice.event,
          detail: notice.detail,
        }),
      );
    });
    stages?.mark('ran');
    this.faults.at('publish');
    await this.followUp(cause, row, state, true, events, traceparent);
    stages?.mark('published');
  }

  /** Publishes `before` together with the pending prompt, or the result when the graph has ended (same ids every time). */
  private async followUp(
    cause: AnyFact & { executionId: string },
    row: ExecutionRow,
    state: State,
    justRan: boolean,
    before: AnyFact[],
    traceparent?: string,
  ): Promise<void> {
    const executionId = row.execution_id;
    const adapter = this.adapterOf(row.employee_id);
    const standing = whereItStands(row, state, justRan);
    switch (standing.kind) {
      case 'cancelled':
        return this.deps.publisher.publishAll([...before, this.cancelled(cause, executionId)], { traceparent });
      case 'prompt':
        return this.deps.publisher.publishAll([...before, this.prompt(cause, row, standing.pending)], { traceparent });
      case 'restart':
        if (before.length) await this.deps.publisher.publishAll(before, { traceparent });
        return this.advance(cause as RunIntent | HILResponse, row, adapter.input(cause as RunIntent), traceparent);
      case 'continue':
        // nodes before an interrupt are safe to repeat; a node that calls tools acts once through its records
        if (before.length) await this.deps.publisher.publishAll(before, { traceparent });
        return this.advance(cause as RunIntent | HILResponse, row, null, traceparent);
      case 'finish': {
        const { status, ...body } = adapter.outcome(state.values);
        // a cancel that came while it ran: what it did is told, and the run ends cancelled
        if (this.cancels.has(executionId))
          return this.finish(cause, executionId, 'cancelled', { ...body, error: cancelError(undefined) }, before, traceparent);
        return this.finish(cause, executionId, status, body, before, traceparent);
      }
      case 'ended': {
        // the outcome the graph's state holds, when it is the one recorded (a graph that threw has none)
        let again: Pick<ExecutionResult, 'output' | 'error'> = {};
        try {
          const { status, ...body } = adapter.outcome(state.values);
          if (status === standing.status) again = body;
        } catch {
          // its checkpoints pruned: the result's id is what dedupes; the body was published the first time
        }
        return this.deps.publisher.publishAll([...before, this.result(cause, standing.status, again, executionId)], {
          traceparent,
        });
      }
      case 'waiting':
        // remembered before its events are published: a crash in between finds the row, and the run goes on
        await this.deps.pool.query(
          `INSERT INTO deferred_runs (execution_id, org_id, until, cause) VALUES ($1, $2, $3, $4)
           ON CONFLICT (execution_id) DO UPDATE SET until = $3, cause = $4`,
          [executionId, row.org_id, standing.waiting.waitUntil, JSON.stringify(cause)],
        );
        if (before.length) await this.deps.publisher.publishAll(before, { traceparent });
        return;
      case 'nothing':
        if (before.length) await this.deps.publisher.publishAll(before, { traceparent });
        return;
      default: {
        const never: never = standing;
        throw new Error(`unhandled standing ${JSON.stringify(never)}`);
      }
    }
  }

  private async finish(
    cause: AnyFact,
    executionId: string,
    status: ExecutionResult['status'],
    body: Pick<ExecutionResult, 'output' | 'error'>,
    before: AnyFact[],
    traceparent?: string,
  ): Promise<void> {
    await this.deps.pool.query(
      `UPDATE graph_executions SET status = $2, ended_at = $3 WHERE execution_id = $1 AND status = 'running'`,
      [executionId, status, this.clock.now().toISOString()],
    );
    // the run's last events and its result in one producer send, the events first in it, as a prompt goes
    // with the events before it (docs/decisions.md, 2026-11-24)
    await this.deps.publisher.publishAll([...before, this.result(cause, status, body, executionId)], { traceparent });
  }

  private cancelled(cause: AnyFact, executionId: string): ExecutionResult {
    return this.result(
      cause,
      'cancelled',
      { error: cancelError(cause.type === 'RunIntent' ? cause.reason : undefined) },
      executionId,
    );
  }

  /** The one result of an execution: its id derives from the execution, so a repeat dedupes downstream. */
  private result(
    cause: AnyFact,
    status: ExecutionResult['status'],
    body: Pick<ExecutionResult, 'output' | 'error'>,
    executionId = (cause as { executionId: string }).executionId,
  ): ExecutionResult {
    return this.caused('ExecutionResult', cause, executionId, `${executionId}:result:${status}`, {
      executionId,
      status,
      ...body,
    });
  }

  private prompt(cause: AnyFact, row: ExecutionRow, pending: Pending) {
    const { spec } = pending;
    const common = {
      executionId: row.execution_id,
      promptId: pending.promptId,
      messages: spec.messages,
      inputSchema: inputSchemaJson(spec),
      ...(spec.allowedActions ? { allowedActions: spec.allowedActions } : {}),
      ...(spec.progress !== undefined ? { progress: spec.progress } : {}),
    };
    const body =
      spec.kind === 'options'
        ? { ...common, kind: 'options' as const, options: spec.options, selectionRules: spec.selectionRules }
        : { ...common, kind: 'questions' as const, questions: spec.questions };
    // a run with no conversation of its own (an employee's) asks its next question where the last answer came
    // from — the socket of whoever answered — and otherwise its owner
    const answeredFrom =
      !row.conversation_id && cause.type === 'HILResponse' && cause.correlation.conversationId ? cause.correlation : undefined;
    const conversationId = row.conversation_id ?? answeredFrom?.conversationId;
    const userId = answeredFrom?.userId ?? row.owner_user_id;
    const correlation = {
      executionId: row.execution_id,
      ...(conversationId ? { conversationId } : {}),
      ...(userId ? { userId } : {}),
    };
    return makeFact('HILPrompt', { orgId: row.org_id, correlation, causationId: cause.id }, body, {
      ids: { newId: () => derivedId(row.execution_id, `prompt:${pending.promptId}`) },
      clock: this.clock,
    });
  }

  private ignored(response: HILResponse, reason: string): FactOf<'ExecutionEvent'> {
    this.deps.log.info(
      { executionId: response.executionId, promptId: response.promptId, reason },
      'answer acknowledged without effect',
    );
    return this.caused('ExecutionEvent', response, response.executionId, `${response.id}:ignored`, {
      executionId: response.executionId,
      event: 'answer_ignored',
      detail: `${response.promptId}: ${reason}`.slice(0, 500),
    });
  }

  /** A fact caused by `cause` whose id derives from it: the same delivery always yields the same facts. */
  private caused<T extends 'ExecutionEvent' | 'ExecutionResult'>(
    type: T,
    cause: AnyFact,
    executionId: string,
    idSource: string,
    body: FactBody<T>,
  ): FactOf<T> {
    return makeFact(type, causedBy(cause, { executionId }), body, {
      ids: { newId: () => derivedId(idSource, type) },
      clock: this.clock,
    });
  }

  private stateOf(adapter: GraphAdapter<unknown>, executionId: string): Promise<State> {
    return adapter.graph.getState({ configurable: { thread_id: executionId } });
  }

  /**
   * Serialises every start/resume/cancel of one execution: in this process first (so waiters do not
   * each hold a pool connection), then across worker processes with a Postgres advisory lock. `fn` is
   * given the execution's row as it stands once the lock is held (undefined before its first start).
   */
  private withLock<T>(executionId: string, fn: (row: ExecutionRow | undefined) => Promise<T>): Promise<T> {
    const previous = this.queues.get(executionId) ?? Promise.resolve();
    const run = previous.then(() => this.withAdvisoryLock(executionId, fn));
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(executionId, tail);
    void tail.then(() => {
      if (this.queues.get(executionId) === tail) this.queues.delete(executionId);
    });
    return run;
  }

  private async withAdvisoryLock<T>(executionId: string, fn: (row: ExecutionRow | undefined) => Promise<T>): Promise<T> {
    const client = await this.deps.pool.connect();
    const row = await this.lock(client, executionId);
    try {
      const checkpoints = this.deps.checkpoints;
      return await (checkpoints ? checkpoints.holding(executionId, () => fn(row)) : fn(row));
    } finally {
      await this.unlock(client, executionId);
    }
  }

  /**
   * Takes the execution's lock, then reads its row after the lock was granted, in one round trip
   * (migration 0015). A session lock outlives the statement that took it: when taking it, or giving it
   * back (`unlock`), fails half-way, the lock may still be held, so the connection is closed rather than
   * pooled, and the lock goes with it.
   */
  private async lock(client: PoolClient, executionId: string): Promise<ExecutionRow | undefined> {
    try {
      const { rows } = await client.query<ExecutionRow>(
        statementNames.query('SELECT * FROM lock_graph_execution($1)', [executionId]),
      );
      return rows[0];
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
  }

  /** Gives the execution's lock back and the connection to the pool. */
  private async unlock(client: PoolClient, executionId: string): Promise<void> {
    try {
      await client.query(statementNames.query('SELECT pg_advisory_unlock(hashtextextended($1, 42))', [executionId]));
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
    client.release();
  }
}
