import { type TSchema, Type } from '@sinclair/typebox';
import { SHOWS_SOMETHING } from './common';
import type { AnswerPayload, HILPrompt, NavigationAction } from './facts';
import { Limits } from './limits';
import { type FieldError, type Validation, validateOnce } from './validate';

type PromptShape = Pick<HILPrompt, 'kind' | 'allowedActions'> &
  (
    | { kind: 'options'; options: { id: string }[]; selectionRules: { mode: 'single' | 'multi'; min?: number; max?: number } }
    | {
        kind: 'questions';
        questions: { id: string; required?: boolean }[];
      }
  );

const navigation = (actions: readonly NavigationAction[] | undefined): TSchema[] =>
  actions && actions.length > 0
    ? [Type.Object({ action: Type.Union(actions.map((a) => Type.Literal(a))) }, { additionalProperties: false })]
    : [];

/** The answer schema a prompt's kind implies, before navigation actions are added. */
function answerSchema(prompt: PromptShape): TSchema {
  if (prompt.kind === 'options') {
    const ids = prompt.options.map((o) => Type.Literal(o.id));
    const single = prompt.selectionRules.mode === 'single';
    const min = single ? 1 : (prompt.selectionRules.min ?? 1);
    const max = single ? 1 : (prompt.selectionRules.max ?? prompt.options.length);
    return Type.Object(
      { selected: Type.Array(Type.Union(ids), { minItems: min, maxItems: max, uniqueItems: true }) },
      { additionalProperties: false },
    );
  }
  const answers = Object.fromEntries(
    prompt.questions.map((q) => {
      // a required answer says something: spaces alone are no answer
      const text = q.required
        ? Type.String({ minLength: 1, maxLength: Limits.text, pattern: SHOWS_SOMETHING })
        : Type.String({ minLength: 0, maxLength: Limits.text });
      return [q.id, q.required ? text : Type.Optional(text)];
    }),
  );
  return Type.Object({ answers: Type.Object(answers, { additionalProperties: false }) }, { additionalProperties: false });
}

/**
 * The JSON Schema an answer must satisfy (`{selected}` for options, `{answers}` for questions, or
 * `{action}` where the prompt allows navigation). The prompt carries it as `inputSchema`.
 */
export function promptInputSchema(prompt: PromptShape): TSchema {
  const nav = navigation(prompt.allowedActions);
  const answer = answerSchema(prompt);
  return nav.length > 0 ? Type.Union([answer, ...nav]) : answer;
}

/** Plain JSON of the input schema, for the prompt fact. */
export const inputSchemaJson = (prompt: PromptShape): Record<string, unknown> =>
  JSON.parse(JSON.stringify(promptInputSchema(prompt))) as Record<string, unknown>;

/** Checks an answer against its prompt, naming the failing field (`/selected`, `/answers/q1`, `/action`). */
export function checkAnswer(prompt: PromptShape, payload: unknown): Validation<AnswerPayload> {
  const isObj = typeof payload === 'object' && payload !== null && !Array.isArray(payload);
  if (isObj && 'action' in payload) {
    const nav = navigation(prompt.allowedActions)[0];
    if (!nav) return { ok: false, errors: [{ path: '/action', message: 'this prompt allows no navigation action' }] };
    return validateOnce(nav, payload) as Validation<AnswerPayload>;
  }
  const result = validateOnce(answerSchema(prompt), payload);
  if (result.ok) return result as Validation<AnswerPayload>;
  const errors: FieldError[] = result.errors.map((e) =>
    /match/.test(e.message) && e.path.startsWith('/answers/')
      ? { path: e.path, message: 'is blank: this question needs an answer (or skip it where the prompt allows)' }
      : e,
  );
  return { ok: false, errors };
}
