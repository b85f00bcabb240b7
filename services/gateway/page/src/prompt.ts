/**
 * A prompt rendered from itself (ARCHITECTURE §3, §13): its messages, its options as radio buttons
 * (single) or checkboxes (multi) with descriptions and the recommended one marked, its questions as
 * labelled fields with the example answer as placeholder, and Back / Skip / Restart where allowed.
 * Selection rules and required answers are checked before anything is sent; what the gateway still
 * refuses is shown in an alert next to the field it names.
 */
import type { PromptView } from '@hireloop/schemas';
import type { ApiResult } from './api';
import { h, uid } from './dom';
import { diagramImage } from './employee';

export type Prompt = PromptView;
export type Answer = { selected: string[] } | { answers: Record<string, string> } | { action: 'back' | 'skip' | 'restart' };
type Rules = { mode: 'single' | 'multi'; min?: number; max?: number };

/** What is wrong with choosing `count` of `total` options under these rules, or null when it may be sent. */
export function selectionProblem(rules: Rules, count: number, total: number): string | null {
  if (rules.mode === 'single') return count === 1 ? null : 'Choose one option.';
  const min = rules.min ?? 1;
  const max = Math.min(rules.max ?? total, total);
  if (count < min) return `Choose at least ${min} option${min === 1 ? '' : 's'} (you chose ${count}).`;
  if (count > max) return `Choose at most ${max} option${max === 1 ? '' : 's'} (you chose ${count}).`;
  return null;
}

/** The rule in words, shown above the options. */
export function selectionHint(rules: Rules, total: number): string {
  if (rules.mode === 'single') return 'Choose one.';
  const min = rules.min ?? 1;
  const max = Math.min(rules.max ?? total, total);
  if (min === max) return `Choose ${min}.`;
  return min === 0 ? `Choose up to ${max}.` : `Choose ${min} to ${max}.`;
}

const ACTION_LABELS = { back: 'Back', skip: 'Skip', restart: 'Restart' } as const;

export interface PromptFormOptions {
  prompt: Prompt;
  /** sends the answer (HTTP respond); the gateway's refusal comes back as the result */
  submit: (answer: Answer) => Promise<ApiResult<unknown>>;
  answered: (answer: Answer) => void;
  /**
   * the gateway says this prompt is no longer pending (409): answered elsewhere, or the execution moved on; given
   * what to tell the person (the gateway's message), which the caller keeps in an alert where it shows what happens now
   */
  stale?: (message: string) => void;
}

export function promptForm({ prompt, submit, answered, stale }: PromptFormOptions): HTMLFormElement {
  const formAlert = h('div', { class: 'form-alert' });
  const alerts = new Map<string, HTMLElement>();
  const say = (where: HTMLElement, message: string | null) => {
    where.replaceChildren(...(message ? [h('p', { role: 'alert', class: 'alert' }, message)] : []));
  };
  const clear = () => {
    say(formAlert, null);
    for (const el of alerts.values()) say(el, null);
    for (const field of form.querySelectorAll('[aria-invalid]')) {
      field.removeAttribute('aria-invalid');
      // the alert that described it is gone: so is its id from the field's description
      const kept = (field.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id && !id.startsWith('problem'));
      if (kept.length > 0) field.setAttribute('aria-describedby', kept.join(' '));
      else field.removeAttribute('aria-describedby');
    }
  };

  let body: HTMLElement;
  let collect: () => Answer | { problem: string; field: string };
  if (prompt.kind === 'options') {
    const multi = prompt.selectionRules.mode === 'multi';
    const group = uid('opt');
    const alert = h('div', { class: 'field-alert' });
    alerts.set('/selected', alert);
    body = h(
      'fieldset',
      { class: 'options' },
      h('legend', {}, selectionHint(prompt.selectionRules, prompt.options.length)),
      prompt.options.map((option) => {
        const id = uid('option');
        const descId = uid('desc');
        return h(
          'div',
          { class: option.recommended ? 'option recommended' : 'option' },
          h('input', {
            type: multi ? 'checkbox' : 'radio',
            name: group,
            id,
            value: option.id,
            'aria-describedby': option.description || option.recommended ? descId : undefined,
          }),
          h('label', { for: id }, option.label),
          option.description || option.recommended
            ? h(
                'p',
                { id: descId, class: 'option-desc' },
                option.recommended ? h('span', { class: 'badge' }, 'Recommended') : null,
                option.recommended && option.description ? ' ' : null,
                option.description ?? null,
              )
            : null,
        );
      }),
      alert,
    );
    collect = () => {
      const selected = [...body.querySelectorAll<HTMLInputElement>('input:checked')].map((i) => i.value);
      const problem = selectionProblem(prompt.selectionRules, selected.length, prompt.options.length);
      return problem ? { problem, field: '/selected' } : { selected };
    };
  } else {
    body = h(
      'div',
      { class: 'questions' },
      prompt.questions.map((question) => {
        const id = uid('q');
        const alert = h('div', { class: 'field-alert' });
        alerts.set(`/answers/${question.id}`, alert);
        return h(
          'div',
          { class: 'question' },
          h(
            'label',
            { for: id },
            question.text,
            question.required ? h('span', { class: 'req', 'aria-hidden': 'true' }, ' *') : null,
          ),
          h('textarea', {
            id,
            'data-question': question.id,
            rows: 2,
            placeholder: question.exampleAnswer ?? '',
            'aria-required': question.required ? 'true' : undefined,
          }),
          alert,
        );
      }),
    );
    collect = () => {
      const answers: Record<string, string> = {};
      for (const field of body.querySelectorAll<HTMLTextAreaElement>('textarea')) {
        const qid = field.dataset.question ?? '';
        const question = prompt.questions.find((q) => q.id === qid);
        const text = field.value.trim();
        if (!text && question?.required) return { problem: 'This answer is required.', field: `/answers/${qid}` };
        if (text) answers[qid] = text;
      }
      return { answers };
    };
  }

  const buttons = h(
    'div',
    { class: 'actions' },
    h('button', { type: 'submit', class: 'primary' }, 'Submit answer'),
    (prompt.allowedActions ?? []).map((action) =>
      h('button', { type: 'button', onClick: () => void send({ action }) }, ACTION_LABELS[action]),
    ),
  );

  const showProblem = (message: string, field?: string) => {
    const key = field?.replace(/^\/payload/, '');
    const target = (key && alerts.get(key)) || formAlert;
    say(target, message);
    const input =
      key?.startsWith('/answers/') && body.querySelector<HTMLElement>(`[data-question="${CSS.escape(key.slice(9))}"]`);
    if (input) {
      input.setAttribute('aria-invalid', 'true');
      // the alert describes the field it is about
      const alert = target.firstElementChild as HTMLElement | null;
      if (alert) {
        alert.id ||= uid('problem');
        input.setAttribute('aria-describedby', [input.getAttribute('aria-describedby'), alert.id].filter(Boolean).join(' '));
      }
      input.focus();
    } else {
      // about the form as a whole (a choice refused, an answer that came too late): focus stays in it, on the
      // choice made or the first control, not on the page's body where a disabled button would leave it
      body.querySelector<HTMLElement>('input:checked, input, textarea')?.focus();
    }
  };

  let busy = false;
  async function send(answer: Answer) {
    if (busy) return;
    busy = true;
    clear();
    form.setAttribute('aria-busy', 'true');
    for (const b of form.querySelectorAll('button')) b.disabled = true;
    const result = await submit(answer);
    busy = false;
    form.removeAttribute('aria-busy');
    for (const b of form.querySelectorAll('button')) b.disabled = false;
    if (result.ok) answered(answer);
    else if (result.status === 409 && stale) {
      // said in words, not the gateway's ids; the caller then shows where the execution is now
      showProblem('This question was already answered, or hireloop has moved on. Showing where it is now…');
      stale(`Your answer was not used: ${result.message}`);
    } else showProblem(result.message, result.field);
  }

  // what is asked describes the form and its fields' group, so that a screen reader entering them hears it
  const asked = uid('asked');
  if (body.tagName === 'FIELDSET') body.setAttribute('aria-describedby', asked);
  const form = h(
    'form',
    {
      'aria-label': 'Prompt',
      'aria-describedby': asked,
      class: 'prompt',
      novalidate: true,
      onSubmit: (event: Event) => {
        event.preventDefault();
        clear();
        const answer = collect();
        if ('problem' in answer) showProblem(answer.problem, answer.field);
        else void send(answer);
      },
    },
    h('div', { class: 'prompt-messages', id: asked }, prompt.messages.map(promptMessage)),
    body,
    formAlert,
    buttons,
  );
  // Ctrl+Enter in an answer's box submits, as in the message box (Enter alone adds a line)
  form.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && event.target instanceof HTMLTextAreaElement) {
      event.preventDefault();
      (form as HTMLFormElement).requestSubmit();
    }
  });
  return form;
}

const FENCED_MERMAID = /^```mermaid\n([\s\S]*)\n```$/;

/** A prompt's message as text; a fenced Mermaid block (the review's proposal) as its picture. */
function promptMessage(message: string): Node {
  const diagram = FENCED_MERMAID.exec(message.trim());
  return diagram?.[1] ? diagramImage(diagram[1], 'Proposed diagram', 'The proposed employee.') : h('p', {}, message);
}

/** An answered prompt, read-only: what was asked and what was answered. */
export function answeredView(prompt: Prompt, answer: Answer | null): HTMLElement {
  let shown: HTMLElement;
  // answered somewhere else (another tab or window of the same conversation): what was asked, and where
  if (answer === null) shown = h('p', { class: 'answer muted' }, 'Answered in another window.');
  else if ('action' in answer) shown = h('p', { class: 'answer' }, `You chose ${ACTION_LABELS[answer.action]}.`);
  else if ('selected' in answer && prompt.kind === 'options') {
    const labels = answer.selected.map((id) => prompt.options.find((o) => o.id === id)?.label ?? id);
    shown = h('p', { class: 'answer' }, `Your answer: ${labels.join(', ')}`);
  } else if ('answers' in answer && prompt.kind === 'questions') {
    shown = h(
      'dl',
      { class: 'answer' },
      prompt.questions.map((q) => [h('dt', {}, q.text), h('dd', {}, answer.answers[q.id] ?? '(no answer)')]),
    );
  } else shown = h('p', { class: 'answer' }, 'Answered.');
  return h(
    'div',
    { class: 'entry prompt-done' },
    prompt.messages.map((m) =>
      FENCED_MERMAID.test(m.trim()) ? h('p', { class: 'muted' }, '(the proposed diagram)') : h('p', {}, m),
    ),
    shown,
  );
}
