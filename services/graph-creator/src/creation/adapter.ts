import { createHash } from 'node:crypto';
import type { CreateGraphPayload, EmployeeGraphSpec } from '@hireloop/schemas';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import type { Static } from '@sinclair/typebox';
import type { GraphAdapter, RunnableGraph } from '../runner';
import { buildCreationGraph, type CreationOptions } from './graph';
import type { CreationStateT } from './state';

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
const listOf = (update: unknown, key: 'fallbacks' | 'budgetsSpent'): string[] => {
  const value = (update as Record<string, unknown> | null)?.[key];
  return Array.isArray(value) ? (value as string[]) : [];
};

/** The creation graph as the runner drives it: a create_graph trigger in, an employee spec out. */
export function creationAdapter(checkpointer: BaseCheckpointSaver, options: CreationOptions): GraphAdapter<CreationStateT> {
  const graph = buildCreationGraph(options).compile({ checkpointer }) as unknown as RunnableGraph;
  return {
    graph,
    input: (intent) => {
      const payload = intent.trigger.payload as Static<typeof CreateGraphPayload>;
      return {
        executionId: intent.executionId,
        orgId: intent.orgId,
        jobDescription: payload.jobDescription,
        name: payload.name ?? '',
      };
    },
    outcome: (values) => {
      if (values.decision === 'cancel')
        return { status: 'cancelled', error: { code: 'cancelled_by_user', message: 'the user cancelled at review' } };
      if (!values.employee)
        return { status: 'failed', error: { code: 'no_employee', message: 'the creation ended without an employee' } };
      const employee = values.employee as unknown as EmployeeGraphSpec;
      return {
        status: 'completed',
        output: { employee, summary: `${employee.name} v${employee.version}: ${employee.workflows.length} workflow(s)` },
      };
    },
    status: (values) => ({ phase: values.phase, progress: values.progress }),
    // eleven node_exit facts per creation carried nothing a client reads: the path rides on the phase event
    timeline: 'run',
    // ask_human and review, its only interrupts, each run alone in their superstep
    stateFromStream: true,
    // an analyst fallback, and a loop budget spent, are worth an event of their own (the same one again dedupes by its key)
    events: (update) => [
      ...listOf(update, 'fallbacks').map((detail) => ({
        key: `analyst_fallback:${digest(detail)}`,
        event: 'analyst_fallback' as const,
        detail: detail.slice(0, 500),
      })),
      ...listOf(update, 'budgetsSpent').map((detail) => ({
        key: `budget_exceeded:${digest(detail)}`,
        event: 'budget_exceeded' as const,
        reason: 'budget_exceeded',
        detail: detail.slice(0, 500),
      })),
    ],
  };
}
