import type { AnswerPayload, HILPrompt } from '@hireloop/schemas';

/**
 * The scripted answerer of the evaluation harness and the end-to-end tests: the recommended option
 * (else the first), a question's example answer (else skip where allowed, else a placeholder).
 */
export function scriptedAnswer(prompt: Pick<HILPrompt, 'kind' | 'allowedActions'> & Partial<HILPrompt>): AnswerPayload {
  if (prompt.kind === 'options') {
    const options = 'options' in prompt && prompt.options ? prompt.options : [];
    const choice = options.find((o) => o.recommended) ?? options[0];
    return { selected: choice ? [choice.id] : [] };
  }
  const questions = 'questions' in prompt && prompt.questions ? prompt.questions : [];
  if (questions.every((q) => !q.exampleAnswer) && prompt.allowedActions?.includes('skip')) return { action: 'skip' };
  return {
    answers: Object.fromEntries(
      questions.map((q) => [q.id, q.exampleAnswer ?? (q.required ? 'n/a' : '')]).filter(([, a]) => a !== ''),
    ),
  };
}
