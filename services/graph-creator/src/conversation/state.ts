import { Annotation } from '@langchain/langgraph';

/** A workflow as the conversation graph sees it: a name and how it starts. */
export interface DraftFlow {
  id: string;
  text: string;
  start?: string;
}

const replace = <T>(_old: T, next: T): T => next;
const mergeById = (old: DraftFlow[], next: DraftFlow[]): DraftFlow[] => {
  const byId = new Map(old.map((f) => [f.id, f]));
  for (const f of next) byId.set(f.id, { ...byId.get(f.id), ...f });
  return [...byId.values()];
};

/** State of the conversation graph: ids and short texts only, so checkpoints stay small. */
export const ConversationState = Annotation.Root({
  jobDescription: Annotation<string>({ reducer: replace, default: () => '' }),
  name: Annotation<string>({ reducer: replace, default: () => '' }),
  flows: Annotation<DraftFlow[]>({ reducer: mergeById, default: () => [] }),
  details: Annotation<Record<string, string>>({ reducer: replace, default: () => ({}) }),
  rounds: Annotation<number>({ reducer: replace, default: () => 0 }),
  approved: Annotation<boolean>({ reducer: replace, default: () => false }),
  phase: Annotation<string>({ reducer: replace, default: () => 'starting' }),
  progress: Annotation<number>({ reducer: replace, default: () => 0 }),
});
export type ConversationStateT = typeof ConversationState.State;

/** What one branch of the fan-out gets. */
export const FlowReviewState = Annotation.Root({
  flow: Annotation<DraftFlow>({ reducer: replace, default: () => ({ id: '', text: '' }) }),
  ask: Annotation<boolean>({ reducer: replace, default: () => false }),
  start: Annotation<string>({ reducer: replace, default: () => '' }),
});
