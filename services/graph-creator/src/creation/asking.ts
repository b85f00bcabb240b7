import type { AnswerPayload, NavigationAction } from '@hireloop/schemas';
import type { PromptSpec } from '../prompt';
import type { GapState } from './state';

const MAX_QUESTIONS = 5;

/**
 * The next prompt's gaps (pure): blocking gaps first; an options gap alone (its options are its own),
 * or related questions together — the same workflow's first, then any others of the same weight.
 */
export function nextBatch(gaps: GapState[]): GapState[] {
  const open = gaps.filter((g) => g.status === 'open');
  const ordered = [...open.filter((g) => g.gap.blocking), ...open.filter((g) => !g.gap.blocking)];
  const first = ordered[0];
  if (!first) return [];
  if (first.ask === 'options') {
    // the same missing provider across workflows is one question
    const choices = (g: GapState) => (g.options ?? []).map((o) => o.id).join('|');
    const sameProvider = (g: GapState) =>
      g.target.kind === 'step' &&
      !!g.gap.providerId &&
      g.gap.providerId === first.gap.providerId &&
      // a provider that can be connected is one decision; a product outside the catalog, one per stand-in
      (choices(g) === choices(first) || (g.options ?? []).some((o) => o.id === `connect:${g.gap.providerId}`));
    return [first, ...ordered.filter((g) => g !== first && g.ask === 'options' && sameProvider(g) && sameProvider(first))];
  }
  const sameWeight = ordered.filter((g) => g.ask === 'questions' && g.gap.blocking === first.gap.blocking);
  const sameWorkflow = sameWeight.filter((g) => g.gap.workflowId === first.gap.workflowId);
  return [...sameWorkflow, ...sameWeight.filter((g) => !sameWorkflow.includes(g))].slice(0, MAX_QUESTIONS);
}

/**
 * A provider the user said they will connect ("I will connect docusign" for a step) is the recommended answer
 * wherever it is offered again — the trigger of the same product, a step of another workflow. Pure.
 */
export function followPromises(gaps: GapState[]): GapState[] {
  const promised = new Set(gaps.flatMap((g) => (g.status === 'answered' && g.answer?.startsWith('connect:') ? [g.answer] : [])));
  if (promised.size === 0) return gaps;
  return gaps.map((g) => {
    if (g.status !== 'open' || g.previousAnswer !== undefined) return g;
    const kept = (g.options ?? []).find((o) => promised.has(o.id));
    return kept ? { ...g, recommended: kept.id } : g;
  });
}

const questionId = (i: number) => `q${i + 1}`;

/** The prompt that asks a batch; an earlier answer (after `back`) is shown as the recommendation or example. */
export function promptFor(
  batch: GapState[],
  context: { progress: number; canGoBack: boolean; workflowNames: Record<string, string> },
): PromptSpec {
  const allowedActions: NavigationAction[] = ['skip', 'restart', ...(context.canGoBack ? (['back'] as const) : [])];
  const first = batch[0];
  if (!first) throw new Error('nothing to ask');
  const where = first.gap.workflowId
    ? ` (workflow "${context.workflowNames[first.gap.workflowId] ?? first.gap.workflowId}")`
    : '';
  if (first.ask === 'options') {
    const recommended = first.previousAnswer ?? first.recommended;
    const options = (first.options ?? []).map((o) => ({ ...o, ...(o.id === recommended ? { recommended: true } : {}) }));
    return {
      kind: 'options',
      messages: [
        first.gap.question + where,
        first.gap.blocking
          ? 'This one is needed before the employee can run.'
          : `If you skip, I will use ${first.gap.default ?? 'the default'}.`,
      ],
      options: options.length > 0 ? options : [{ id: 'skip', label: 'Leave it for now' }],
      selectionRules: { mode: 'single' },
      allowedActions,
      progress: context.progress,
    };
  }
  // a question the employee cannot run without, and that has no default, is required: skipped, it would stay unsatisfied
  const needed = batch.map((g) => g.gap.blocking && g.gap.default === undefined);
  return {
    kind: 'questions',
    messages: [
      needed.some(Boolean)
        ? `A few details${where}. The required ones are needed before the employee can run${needed.every(Boolean) ? '.' : '; skipped answers to the others take the defaults shown.'}`
        : `A few details${where}. Skipped answers take the defaults shown.`,
    ],
    questions: batch.map((g, i) => {
      const example = g.previousAnswer ?? g.exampleAnswer ?? g.gap.default;
      return {
        id: questionId(i),
        text: g.gap.question,
        required: needed[i] === true,
        ...(example ? { exampleAnswer: example } : {}),
      };
    }),
    allowedActions,
    progress: context.progress,
  };
}

/** Applies an answer (not a navigation action) to the batch's gaps. Unanswered questions take their default. */
export function applyAnswer(gaps: GapState[], batch: GapState[], answer: AnswerPayload): GapState[] {
  const updates = new Map<string, Partial<GapState>>();
  if ('selected' in answer) {
    const choice = answer.selected[0];
    for (const g of batch)
      updates.set(g.gap.id, choice && choice !== 'skip' ? { status: 'answered', answer: choice } : skipped(g));
  } else if ('answers' in answer) {
    batch.forEach((g, i) => {
      const text = answer.answers[questionId(i)]?.trim();
      updates.set(g.gap.id, text ? { status: 'answered', answer: text } : skipped(g));
    });
  }
  return gaps.map((g) => (updates.has(g.gap.id) ? { ...g, ...updates.get(g.gap.id) } : g));
}

/** Skip: a nice-to-have takes its default; a blocking gap leaves its workflow unsatisfied. */
const skipped = (g: GapState): Partial<GapState> =>
  g.gap.blocking || g.gap.default === undefined ? { status: 'unsatisfied' } : { status: 'defaulted' };

export function skipBatch(gaps: GapState[], batch: GapState[]): GapState[] {
  const ids = new Set(batch.map((g) => g.gap.id));
  return gaps.map((g) => (ids.has(g.gap.id) ? { ...g, ...skipped(g) } : g));
}

/** Back: the previous round's gaps are open again, their answers kept to be shown. */
export function reopen(gaps: GapState[], gapIds: string[]): GapState[] {
  const ids = new Set(gapIds);
  return gaps.map((g) => {
    if (!ids.has(g.gap.id)) return g;
    const { answer, ...rest } = g;
    return { ...rest, status: 'open', ...(answer !== undefined ? { previousAnswer: answer } : {}) };
  });
}

/** When rounds run out: nice-to-haves take their defaults, blocking gaps stay unsatisfied. */
export const applyDefaults = (gaps: GapState[]): GapState[] =>
  gaps.map((g) => (g.status === 'open' ? { ...g, ...skipped(g) } : g));
