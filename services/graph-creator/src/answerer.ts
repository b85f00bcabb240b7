import type { AnswerPayload, NavigationAction } from '@hireloop/schemas';

/** What the scripted answerer reads of a prompt (a HILPrompt fact, a `hil_prompt` frame or a prompt spec). */
export interface AnswerablePrompt {
  kind: 'options' | 'questions';
  allowedActions?: readonly NavigationAction[];
  options?: readonly { id: string; recommended?: boolean }[];
  questions?: readonly { id: string; exampleAnswer?: string; required?: boolean }[];
}

/**
 * The scripted answerer of the evaluation harness and the end-to-end tests: the recommended option
 * (else the first), a question's example answer (else skip where allowed, else a placeholder).
 */
export function scriptedAnswer(prompt: AnswerablePrompt): AnswerPayload {
  if (prompt.kind === 'options') {
    const options = prompt.options ?? [];
    const choice = options.find((o) => o.recommended) ?? options[0];
    return { selected: choice ? [choice.id] : [] };
  }
  const questions = prompt.questions ?? [];
  if (questions.every((q) => !q.exampleAnswer) && prompt.allowedActions?.includes('skip')) return { action: 'skip' };
  return {
    answers: Object.fromEntries(
      questions.map((q) => [q.id, q.exampleAnswer ?? (q.required ? 'n/a' : '')]).filter(([, a]) => a !== ''),
    ),
  };
}
