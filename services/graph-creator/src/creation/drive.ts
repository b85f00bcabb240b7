import type { AnswerPayload, EmployeeGraphSpec } from '@hireloop/schemas';
import { type BaseCheckpointSaver, Command } from '@langchain/langgraph';
import { isPromptSpec, type PromptSpec } from '../prompt';
import { buildCreationGraph, type CreationOptions } from './graph';
import type { CreationStateT } from './state';

export interface DriveResult {
  state: CreationStateT;
  employee: EmployeeGraphSpec | null;
  prompts: PromptSpec[];
}

/**
 * Runs one creation in-process, straight on LangGraph and a checkpointer (no Kafka), answering each
 * prompt with `answer`: the evaluation harness and the graph's own tests drive it this way.
 */
export async function driveCreation(
  checkpointer: BaseCheckpointSaver,
  options: CreationOptions,
  input: { executionId: string; orgId: string; jobDescription: string; name?: string },
  answer: (prompt: PromptSpec, index: number) => AnswerPayload,
  maxPrompts = 30,
): Promise<DriveResult> {
  const graph = buildCreationGraph(options).compile({ checkpointer });
  const config = { configurable: { thread_id: input.executionId }, durability: 'exit' as const };
  const prompts: PromptSpec[] = [];
  await graph.invoke({ ...input, name: input.name ?? '' }, config);
  for (;;) {
    const snapshot = await graph.getState(config);
    const pending = snapshot.tasks
      .filter((t) => t.result === undefined)
      .flatMap((t) => t.interrupts)
      .find((i) => i.id && isPromptSpec(i.value));
    if (!pending?.id || !isPromptSpec(pending.value)) {
      const state = snapshot.values as CreationStateT;
      return { state, employee: state.employee as unknown as EmployeeGraphSpec | null, prompts };
    }
    if (prompts.length >= maxPrompts) throw new Error(`more than ${maxPrompts} prompts`);
    prompts.push(pending.value);
    await graph.invoke(new Command({ resume: { [pending.id]: answer(pending.value, prompts.length - 1) } }), config);
  }
}
