/** What clients see of the projections: the public shapes of `schemas/src/api.ts`, nothing internal. */
import type {
  EmployeeView,
  ExecutionView,
  HILPrompt,
  HilPromptFrame,
  PromptView,
  ResultView,
  TimelineEntry,
} from '@hireloop/schemas';
import { TERMINAL_STATUSES } from './commands/access';
import type { EmployeeSummary, Execution, TimelineEntry as StoredEntry } from './read-model';

/** A HILPrompt without its envelope. */
export function promptView(prompt: HILPrompt): PromptView {
  const { type: _type, id: _id, orgId: _orgId, ts: _ts, correlation: _correlation, causationId: _causationId, ...view } = prompt;
  return view;
}

/** The `hil_prompt` frame of a prompt: every field of the HILPrompt and the conversation. */
export const promptFrame = (prompt: HILPrompt, conversationId: string): HilPromptFrame => ({
  type: 'hil_prompt',
  conversationId,
  ...promptView(prompt),
});

function resultView(execution: Execution): ResultView | null {
  if (!TERMINAL_STATUSES.has(execution.status)) return null;
  return {
    status: execution.status as ResultView['status'],
    ...(execution.result ? { output: execution.result } : {}),
    ...(execution.error ? { error: execution.error } : {}),
  };
}

export const executionView = (execution: Execution): ExecutionView => ({
  executionId: execution.executionId,
  conversationId: execution.conversationId,
  status: execution.status,
  currentPrompt: execution.currentPrompt ? promptView(execution.currentPrompt) : null,
  progress: execution.progress,
  phase: execution.phase,
  result: resultView(execution),
  ...(execution.status === 'queued' && execution.position !== null ? { position: execution.position } : {}),
  // a run says whose it is and which of its workflows started it (a creation names no employee of its own)
  ...(execution.workflowId && execution.employeeId ? { employeeId: execution.employeeId } : {}),
  ...(execution.workflowId ? { workflowId: execution.workflowId } : {}),
  createdAt: execution.createdAt,
  updatedAt: execution.updatedAt,
});

/** An employee version; its spec only when the read included it (by id, not in lists). */
export const employeeView = (employee: EmployeeSummary & { spec?: EmployeeView['spec'] }): EmployeeView => ({
  employeeId: employee.employeeId,
  name: employee.name,
  version: employee.version,
  executionId: employee.executionId,
  registeredAt: employee.registeredAt,
  status: employee.status,
  ...(employee.workflows.length > 0 ? { workflows: employee.workflows } : {}),
  ...(employee.spec ? { spec: employee.spec } : {}),
});

export const timelineEntry = (entry: StoredEntry): TimelineEntry => ({
  seq: entry.seq,
  id: entry.id,
  ts: entry.ts,
  topic: entry.topic,
  type: entry.type,
  who: entry.who,
  summary: entry.summary,
  fact: entry.fact,
});
