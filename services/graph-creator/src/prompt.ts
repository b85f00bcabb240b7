import type { AnswerPayload, HILPrompt, NavigationAction, PromptOption, PromptQuestion, SelectionRules } from '@hireloop/schemas';
import { interrupt } from '@langchain/langgraph';

/** What a node asks: the body of a HILPrompt without ids (the runner adds executionId, promptId, inputSchema). */
export type PromptSpec =
  | {
      kind: 'options';
      messages: string[];
      options: PromptOption[];
      selectionRules: SelectionRules;
      allowedActions?: NavigationAction[];
      progress?: number;
    }
  | {
      kind: 'questions';
      messages: string[];
      questions: PromptQuestion[];
      allowedActions?: NavigationAction[];
      progress?: number;
    };

/**
 * Asks the human and returns the answer. LangGraph re-runs the whole node on resume, so a node calls
 * `ask` once at most and does nothing before it that is unsafe to repeat (ARCHITECTURE §5).
 */
export const ask = (spec: PromptSpec): AnswerPayload => interrupt<PromptSpec, AnswerPayload>(spec);

export const isPromptSpec = (value: unknown): value is PromptSpec =>
  typeof value === 'object' &&
  value !== null &&
  ((value as HILPrompt).kind === 'options' || (value as HILPrompt).kind === 'questions');

/** The option ids an answer selected (empty for navigation or free text). */
export const selected = (answer: AnswerPayload): string[] => ('selected' in answer ? answer.selected : []);
export const answers = (answer: AnswerPayload): Record<string, string> => ('answers' in answer ? answer.answers : {});
export const action = (answer: AnswerPayload): NavigationAction | undefined => ('action' in answer ? answer.action : undefined);
