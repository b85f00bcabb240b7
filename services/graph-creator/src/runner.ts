import type { FactPublisher } from '@hireloop/fact-stream';
import { causedBy, type FactBody, makeFact } from '@hireloop/fact-stream';
import { type Clock, derivedId, type Logger, type Pool, systemClock } from '@hireloop/platform';
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
import { isPromptSpec, type PromptSpec } from './prompt';

/** The part of a compiled LangGraph graph the runner uses. */
export interface RunnableGraph {
  stream(input: unknown, config: Record<string, unknown>): Promise<AsyncIterable<unknown>>;
  getState(config: { configurable: { thread_id: string } }): Promise<{
    values: unknown;
    next: readonly string[];
    /** absent when the thread has no checkpoint yet */
    createdAt?: string;
    tasks: readonly { name: string; result?: unknown; interrupts: readonly { id?: string; value?: unknown }[] }[];
  }>;
}

/** How a graph ended, in ExecutionResult terms. */
export type Outcome = { status: ExecutionResult['status'] } & Pick<ExecutionResult, 'output' | 'error'>;

/** What differs between graphs: how a trigger becomes input, and how a finished state becomes a result. */
export interface GraphAdapter<S> {
  graph: RunnableGraph;
  input(intent: RunIntent): Record<string, unknown>;
  outcome(values: S): Outcome;
  status(values: S): { phase?: string; progress?: number };
  /** things worth an ExecutionEvent of their own, in order (e.g. an analyst fallback); published once each */
  notices?(values: S): { event: 'analyst_fallback'; detail: string }[];
}

export interface RunnerDeps<S> {
  adapter: GraphAdapter<S>;
  pool: Pool;
  publisher: FactPublisher;
  log: Logger;
  clock?: Clock;
  /** LangGraph durability: `exit` writes when the run stops at an interrupt or ends (ARCHITECTURE §5, §10) */
  durability?: 'exit' | 'sync' | 'async';
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

interface ExecutionRow {
  execution_id: string;
  org_id: string;
  owner_user_id: string | null;
  conversation_id: string | null;
  status: 'running' | 'completed' | 'cancelled' | 'failed';
}

interface Pending {
  promptId: string;
  spec: PromptSpec;
}

/**
 * Runs executions of a LangGraph graph under the exactly-once rules of ARCHITECTURE §5: a
 * per-execution advisory lock around every start/resume/cancel; resume only with
 * `Command({resume: {[promptId]: payload}})` after checking the prompt is pending; duplicates and
 * stale answers recorded without effect; the pending prompt (or the result) published again after
 * every delivery, with the same ids, so a crash between checkpoint and publish loses nothing.
 */
export class ExecutionRunner<S> {
  private readonly clock: Clock;
  private readonly durability: 'exit' | 'sync' | 'async';
  private readonly queues = new Map<string, Promise<void>>();

  constructor(private readonly deps: RunnerDeps<S>) {
    this.clock = deps.clock ?? systemClock;
    this.durability = deps.durability ?? 'exit';
  }

  async start(intent: RunIntent, traceparent?: string): Promise<void> {
    await this.withLock(intent.executionId, async () => {
      const row = await this.row(intent.executionId);
      if (row) {
        // A redelivered start. If the worker died before the first checkpoint, run it again from
        // the trigger; otherwise say again where it stands (or carry on a run cut off mid-way).
        const state = await this.deps.adapter.graph.getState({ configurable: { thread_id: intent.executionId } });
        if (row.status === 'running' && state.createdAt === undefined) {
          await this.advance(intent, this.deps.adapter.input(intent), traceparent);
          return;
        }
        await this.publishWhereItStands(intent, row, traceparent, state);
        return;
      }
      await this.deps.pool.query(
        `INSERT INTO graph_executions (execution_id, org_id, owner_user_id, conversation_id, status, started_at)
         VALUES ($1, $2, $3, $4, 'running', $5)`,
        [
          intent.executionId,
          intent.orgId,
          intent.correlation.userId ?? null,
          intent.correlation.conversationId ?? null,
          intent.ts,
        ],
      );
      await this.advance(intent, this.deps.adapter.input(intent), traceparent);
    });
  }

  async respond(response: HILResponse, traceparent?: string): Promise<void> {
    await this.withLock(response.executionId, async () => {
      const row = await this.row(response.executionId);
      if (!row) return this.ignore(response, 'unknown execution', traceparent);
      if (row.status !== 'running') return this.ignore(response, `execution is ${row.status}`, traceparent);
      if (row.org_id !== response.orgId || (row.owner_user_id && row.owner_user_id !== response.correlation.userId)) {
        await this.ignore(response, 'the answering user does not own this execution', traceparent);
        // the supervisor gave the answer a slot: the prompt again tells it the execution still waits
        if (row.org_id === response.orgId) await this.publishWhereItStands(response, row, traceparent);
        return;
      }
      const pending = await this.pending(response.executionId);
      if (!pending.some((p) => p.promptId === response.promptId)) {
        await this.ignore(response, 'prompt is not pending (duplicate or stale answer)', traceparent);
        // The answer that moved it on may have been followed by a crash before the next prompt went out.
        await this.publishWhereItStands(response, row, traceparent);
        return;
      }
      const prompt = pending.find((p) => p.promptId === response.promptId);
      const check = prompt ? checkAnswer(prompt.spec, response.payload) : undefined;
      if (check && !check.ok) {
        await this.ignore(response, `answer breaks the prompt's input schema: ${describeErrors(check.errors)}`, traceparent);
        await this.publishWhereItStands(response, row, traceparent);
        return;
      }
      await this.advance(response, new Command({ resume: { [response.promptId]: response.payload } }), traceparent);
    });
  }

  async cancel(intent: RunIntent, traceparent?: string): Promise<void> {
    await this.withLock(intent.executionId, async () => {
      const row = await this.row(intent.executionId);
      if (row && row.status !== 'running') return;
      const now = this.clock.now().toISOString();
      await this.deps.pool.query(
        `INSERT INTO graph_executions (execution_id, org_id, owner_user_id, conversation_id, status, started_at, ended_at)
         VALUES ($1, $2, $3, $4, 'cancelled', $5, $5)
         ON CONFLICT (execution_id) DO UPDATE SET status = 'cancelled', ended_at = $5`,
        [intent.executionId, intent.orgId, intent.correlation.userId ?? null, intent.correlation.conversationId ?? null, now],
      );
      await this.deps.publisher.publish(this.result(intent, 'cancelled', { error: cancelError(intent.reason) }), {
        traceparent,
      });
    });
  }

  /** Runs the graph from `input` until it stops at an interrupt or ends, then publishes what follows. */
  private async advance(cause: RunIntent | HILResponse, input: unknown, traceparent?: string): Promise<void> {
    const executionId = cause.executionId;
    const nodes: string[] = [];
    try {
      const stream = await this.deps.adapter.graph.stream(input, {
        configurable: { thread_id: executionId },
        durability: this.durability,
        streamMode: 'updates',
      });
      for await (const chunk of stream) {
        if (chunk && typeof chunk === 'object') nodes.push(...Object.keys(chunk).filter((k) => !k.startsWith('__')));
      }
    } catch (error) {
      this.deps.log.error({ err: error, executionId }, 'graph run failed');
      await this.finish(
        cause,
        'failed',
        { error: { code: 'graph_failed', message: String((error as Error).message).slice(0, 400) } },
        traceparent,
      );
      return;
    }
    const events = nodes.map((node, i) =>
      this.caused('ExecutionEvent', cause, executionId, `${cause.id}:node:${i}:${node}`, {
        executionId,
        event: 'node_exit',
        node,
      }),
    );
    const state = await this.deps.adapter.graph.getState({ configurable: { thread_id: executionId } });
    const status = this.deps.adapter.status(state.values as S);
    events.push(
      this.caused('ExecutionEvent', cause, executionId, `${cause.id}:phase`, { executionId, event: 'phase', ...status }),
    );
    await this.deps.publisher.publishAll(events, { traceparent });

    const row = await this.row(executionId);
    if (row) await this.publishWhereItStands(cause, row, traceparent, state);
  }

  /** Publishes the pending prompt, or the result when the graph has ended (same ids every time). */
  private async publishWhereItStands(
    cause: AnyFact,
    row: ExecutionRow,
    traceparent?: string,
    known?: Awaited<ReturnType<RunnableGraph['getState']>>,
  ): Promise<void> {
    const executionId = row.execution_id;
    if (row.status === 'cancelled') {
      const error = cancelError(cause.type === 'RunIntent' ? cause.reason : undefined);
      await this.deps.publisher.publish(this.result(cause, 'cancelled', { error }, executionId), { traceparent });
      return;
    }
    const state = known ?? (await this.deps.adapter.graph.getState({ configurable: { thread_id: executionId } }));
    const pending = this.pendingOf(state);
    const first = pending[0];
    if (first) {
      await this.deps.publisher.publish(this.prompt(cause, row, first), { traceparent });
      return;
    }
    if (row.status === 'running' && state.createdAt !== undefined && state.next.length > 0 && !known) {
      // A run cut off between two checkpoints: carry on from the last one (nodes before an
      // interrupt are safe to repeat).
      await this.advance(cause as RunIntent | HILResponse, null, traceparent);
      return;
    }
    if (state.next.length === 0 && row.status === 'running') {
      const { status, ...body } = this.deps.adapter.outcome(state.values as S);
      await this.finish(cause, status, body, traceparent);
    } else if (row.status !== 'running') {
      await this.deps.publisher.publish(this.result(cause, row.status, {}, executionId), { traceparent });
    }
  }

  private async finish(
    cause: AnyFact & { executionId?: string },
    status: ExecutionResult['status'],
    body: Pick<ExecutionResult, 'output' | 'error'>,
    traceparent?: string,
  ): Promise<void> {
    const executionId = (cause as { executionId: string }).executionId;
    await this.deps.pool.query(
      `UPDATE graph_executions SET status = $2, ended_at = $3 WHERE execution_id = $1 AND status = 'running'`,
      [executionId, status, this.clock.now().toISOString()],
    );
    await this.deps.publisher.publish(this.result(cause, status, body, executionId), { traceparent });
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
    const correlation = {
      executionId: row.execution_id,
      ...(row.conversation_id ? { conversationId: row.conversation_id } : {}),
      ...(row.owner_user_id ? { userId: row.owner_user_id } : {}),
    };
    return makeFact('HILPrompt', { orgId: row.org_id, correlation, causationId: cause.id }, body, {
      ids: { newId: () => derivedId(row.execution_id, `prompt:${pending.promptId}`) },
      clock: this.clock,
    });
  }

  private async ignore(response: HILResponse, reason: string, traceparent?: string): Promise<void> {
    this.deps.log.info(
      { executionId: response.executionId, promptId: response.promptId, reason },
      'answer acknowledged without effect',
    );
    await this.deps.publisher.publish(
      this.caused('ExecutionEvent', response, response.executionId, `${response.id}:ignored`, {
        executionId: response.executionId,
        event: 'answer_ignored',
        detail: `${response.promptId}: ${reason}`.slice(0, 500),
      }),
      { traceparent },
    );
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

  private pendingOf(state: Awaited<ReturnType<RunnableGraph['getState']>>): Pending[] {
    // A task that has a result finished; its interrupt is history, not a pending question.
    return state.tasks
      .filter((t) => t.result === undefined)
      .flatMap((t) => t.interrupts)
      .flatMap((i) => (i.id && isPromptSpec(i.value) ? [{ promptId: i.id, spec: i.value }] : []));
  }

  private async pending(executionId: string): Promise<Pending[]> {
    return this.pendingOf(await this.deps.adapter.graph.getState({ configurable: { thread_id: executionId } }));
  }

  private async row(executionId: string): Promise<ExecutionRow | undefined> {
    const { rows } = await this.deps.pool.query<ExecutionRow>(
      'SELECT execution_id, org_id, owner_user_id, conversation_id, status FROM graph_executions WHERE execution_id = $1',
      [executionId],
    );
    return rows[0];
  }

  /**
   * Serialises every start/resume/cancel of one execution: in this process first (so waiters do not
   * each hold a pool connection), then across worker processes with a Postgres advisory lock.
   */
  private withLock<T>(executionId: string, fn: () => Promise<T>): Promise<T> {
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

  private async withAdvisoryLock<T>(executionId: string, fn: () => Promise<T>): Promise<T> {
    const client = await this.deps.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock(hashtextextended($1, 42))', [executionId]);
      try {
        return await fn();
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 42))', [executionId]);
      }
    } finally {
      client.release();
    }
  }
}
