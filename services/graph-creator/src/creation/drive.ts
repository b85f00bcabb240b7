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
  {
    maxPrompts = 30,
    durability = 'exit',
    onStep,
  }: { maxPrompts?: number; durability?: 'exit' | 'sync'; onStep?: (node: string) => void } = {},
): Promise<DriveResult> {
  const graph = buildCreationGraph(options).compile({ checkpointer });
  const config = { configurable: { thread_id: input.executionId }, durability };
  const prompts: PromptSpec[] = [];
  const run = async (value: unknown) => {
    for await (const chunk of await graph.stream(value as never, { ...config, streamMode: 'updates' })) {
      for (const node of Object.keys(chunk as object)) onStep?.(node);
    }
  };
  // A thread that already has a checkpoint (a run cut off mid-way) carries on from it.
  const existing = await graph.getState(config);
  if (existing.createdAt === undefined) await run({ ...input, name: input.name ?? '' });
  for (;;) {
    const snapshot = await graph.getState(config);
    const cutOff = snapshot.next.length > 0 && snapshot.tasks.every((t) => t.interrupts.length === 0 || t.result !== undefined);
    if (cutOff) {
      await run(null);
      continue;
    }
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
    await run(new Command({ resume: { [pending.id]: answer(pending.value, prompts.length - 1) } }));
  }
}
