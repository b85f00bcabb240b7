import type { EmployeeTriggerPayload } from '@hireloop/schemas';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import type { GraphAdapter, NodeEvent, RunnableGraph } from '../runner';
import { buildRuntimeGraph, type RuntimeOptions, stepOutcomes, summaryOf } from './graph';
import type { RunStateT } from './state';

/** The runtime graph as the runner drives it: an employee_trigger in, a run's summary and step outcomes out. */
export function runtimeAdapter(checkpointer: BaseCheckpointSaver, options: RuntimeOptions): GraphAdapter<RunStateT> {
  const graph = buildRuntimeGraph(options).compile({ checkpointer }) as unknown as RunnableGraph;
  return {
    graph,
    input: (intent) => {
      const payload = intent.trigger.payload as EmployeeTriggerPayload;
      return {
        executionId: intent.executionId,
        orgId: intent.orgId,
        // the supervisor sets RunIntent.employeeId to the employee of an employee_trigger
        employeeId: intent.employeeId,
        version: payload.version ?? 0,
        workflowId: payload.workflowId ?? '',
        event: payload.event ?? {},
      };
    },
    outcome: (values) => {
      const output = { summary: summaryOf(values), steps: stepOutcomes(values) };
      if (values.failure)
        return { status: 'failed', output, error: { code: values.failure.code, message: values.failure.message.slice(0, 480) } };
      return { status: 'completed', output };
    },
    status: (values) => ({ phase: values.phase, progress: values.progress }),
    events: (update) => {
      const events = (update as { events?: unknown } | null)?.events;
      return Array.isArray(events) ? (events as NodeEvent[]) : [];
    },
    owner: (intent) => options.specs.owner(intent.employeeId, intent.orgId),
  };
}
