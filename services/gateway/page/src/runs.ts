/**
 * Employees and runs (ARCHITECTURE §11, §13): the org's employees with version and status, activate /
 * deactivate; an employee's runs; a run's timeline, effects and pending approval (the same Prompt
 * form); and the inbox of everything waiting for this user's answer. Where the gateway does not have a
 * route yet (it answers 404 or refuses the filter), the view says so instead of failing.
 */
import type { EmployeeView, ExecutionView, TimelineEntry } from '@hireloop/schemas';
import { type Api, type ApiResult, ENDED } from './api';
import { formatTime, h, keepFocus, progressBar, table, uid } from './dom';
import { employeeView, statusLabel, toggleActivation, workflowStates } from './employee';
import { policySection } from './policy';
import { promptForm } from './prompt';

type Employee = EmployeeView & { status?: string };
type Execution = ExecutionView & { employeeId?: string };
type Spec = NonNullable<EmployeeView['spec']>;
interface Effect {
  stepId: string;
  capabilityId: string;
  args?: unknown;
  idempotencyKey?: string;
  status: string;
  output?: unknown;
  error?: unknown;
  at?: string;
}

const unavailable = (what: string, res: Extract<ApiResult<unknown>, { ok: false }>) =>
  h(
    'p',
    { class: 'notice', role: 'status' },
    res.status === 404 || res.status === 400
      ? `${what} are not available from this gateway yet (it answered ${res.status}: ${res.message}).`
      : `${what} could not be loaded: ${res.message}`,
  );

const loading = (main: HTMLElement, title: string) =>
  main.replaceChildren(h('h1', {}, title), h('p', { class: 'muted' }, 'Loading…'));

const text = (value: unknown): Node => document.createTextNode(value === undefined || value === null ? '' : String(value));

export async function employeesPage(api: Api, main: HTMLElement): Promise<void> {
  loading(main, 'Employees');
  const res = await api.get<{ employees: Employee[] }>('/v1/employees');
  if (!res.ok) return void main.replaceChildren(h('h1', {}, 'Employees'), unavailable('Employees', res));
  const out = h('div', {});
  const rows = res.body.employees.map((e) => {
    const status = text(statusLabel(e.status, e.workflows));
    // every row's controls have one name each ("Activate", as §13 names it): the row's employee describes them,
    // so that a screen reader's list of buttons and links tells the rows apart
    const name = h('span', { id: uid('employee') }, e.name);
    const of = { 'aria-describedby': name.id };
    // only the switch that applies is enabled (both when the status is not reported); a switch flips them
    const activate = h('button', { type: 'button', disabled: e.status === 'active', ...of }, 'Activate');
    // "Turn off", as on the employee's page: a name holding "Activate" would be found by a search for that one
    const deactivate = h('button', { type: 'button', disabled: e.status === 'inactive', ...of }, 'Turn off');
    const toggle = async (on: boolean) => {
      const result = await toggleActivation(api, e.employeeId, on, out, e.name);
      if (!result) return;
      activate.disabled = on;
      deactivate.disabled = !on;
      status.textContent = statusLabel(on ? 'active' : 'inactive', result.workflows);
      // the button pressed is disabled now: focus goes to the one that undoes it, not to the page's body
      (on ? deactivate : activate).focus();
    };
    activate.addEventListener('click', () => void toggle(true));
    deactivate.addEventListener('click', () => void toggle(false));
    const actions = h(
      'div',
      { class: 'actions' },
      h('a', { href: `#/employees/${encodeURIComponent(e.employeeId)}`, ...of }, 'Details and runs'),
      activate,
      deactivate,
    );
    return [name, text(e.version), status, text(formatTime(e.registeredAt)), actions];
  });
  main.replaceChildren(
    h('h1', {}, 'Employees'),
    table(
      'Employees',
      ['Name', 'Version', 'Status', 'Registered', 'Actions'],
      rows,
      'No employees yet: describe a job in the chat to create one.',
    ),
    out,
  );
}

/** What started a run: its workflow's name and trigger, as the employee's spec says. */
export function triggerOf(run: Pick<ExecutionView, 'workflowId'>, spec: Spec | undefined): string {
  if (!run.workflowId) return 'not recorded';
  const workflow = spec?.workflows.find((w) => w.id === run.workflowId);
  if (!workflow) return run.workflowId;
  return workflow.trigger.triggerId ? `${workflow.name} (${workflow.trigger.triggerId})` : workflow.name;
}

const runRows = (runs: Execution[], spec: Spec | undefined) =>
  runs.map((r) => [
    // named for the run it opens ("completed, run started 1/12/26, 15:16:02"), not for its status alone, so that a
    // list of links tells the runs apart; the name starts with the words seen (the status), as speech control needs
    h(
      'a',
      {
        href: `#/runs/${encodeURIComponent(r.executionId)}`,
        'aria-label': `${r.status}, run started ${formatTime(r.createdAt, true) || `as ${r.executionId.slice(0, 8)}`}`,
      },
      r.status,
    ),
    text(formatTime(r.createdAt)),
    text(triggerOf(r, spec)),
  ]);

export async function employeePage(api: Api, main: HTMLElement, id: string): Promise<void> {
  loading(main, 'Employee');
  const res = await api.get<Employee>(`/v1/employees/${encodeURIComponent(id)}`);
  if (!res.ok) return void main.replaceChildren(h('h1', {}, 'Employee'), unavailable('This employee', res));
  const employee = res.body;
  const statusText = h('span', {}, employee.status ?? 'not reported');
  // each workflow on or off and why, under the status line; a switch brings both up to the gateway's answer
  let states = workflowStates(employee, employee.spec);
  const runsHolder = h('section', { 'aria-label': 'Runs' }, h('h2', {}, 'Runs'), h('p', { class: 'muted' }, 'Loading…'));
  main.replaceChildren(
    h('p', {}, h('a', { href: '#/employees' }, 'All employees')),
    h('h1', {}, employee.name),
    h('p', {}, `Version ${employee.version} · status: `, statusText, ` · registered ${formatTime(employee.registeredAt)}`),
    states,
    employee.spec
      ? employeeView(api, employee.spec, 'h2', employee.status ?? undefined, (now) => {
          statusText.textContent = now.status;
          const next = workflowStates(now, employee.spec);
          states.replaceWith(next);
          states = next;
        })
      : h('p', {}, 'This version has no spec to show.'),
    ...(employee.spec ? [policySection(api, employee.spec.orgId, employee.spec.compiled?.budgets)] : []),
    runsHolder,
  );
  // a run that starts or moves while the page is open shows up without a reload
  let shown = '';
  const showRuns = async () => {
    const runs = await api.get<{ executions: Execution[] }>(`/v1/executions?employeeId=${encodeURIComponent(id)}`);
    const seen = runs.ok ? JSON.stringify(runs.body.executions.map((r) => [r.executionId, r.status])) : `failed ${runs.status}`;
    if (seen === shown) return;
    shown = seen;
    runsHolder.replaceChildren(
      h('h2', {}, 'Runs'),
      !runs.ok
        ? unavailable('Runs', runs)
        : table(
            'Runs',
            ['Status', 'Started', 'Trigger'],
            runRows(runs.body.executions, employee.spec),
            'No runs yet: it runs when one of its triggers fires.',
          ),
    );
  };
  await showRuns();
  whileShown(runsHolder, showRuns);
}

/** Every few seconds while `holder` is on the page and the tab is shown, `refresh`; stops once the view is gone. */
export function whileShown(holder: HTMLElement, refresh: () => Promise<void>, everyMs = 5_000): void {
  let busy = false;
  const timer = setInterval(() => {
    if (!holder.isConnected) return clearInterval(timer);
    if (busy || document.visibilityState !== 'visible') return;
    busy = true;
    void refresh().finally(() => {
      busy = false;
    });
  }, everyMs);
}

function effectsTable(effects: Effect[]): HTMLElement {
  return table(
    'Effects',
    ['Step', 'Capability', 'Status', 'Arguments', 'Result', 'At'],
    effects.map((e) => [
      text(e.stepId),
      text(e.capabilityId),
      text(e.status),
      h('code', {}, JSON.stringify(e.args ?? {})),
      h('code', {}, e.error !== undefined ? JSON.stringify(e.error) : JSON.stringify(e.output ?? '')),
      text(formatTime(e.at)),
    ]),
    'No effects: this run has not acted on anything.',
  );
}

/** A run's page; `notice`, when given, is the gateway's word on an answer it did not take, kept in an alert. */
export async function runPage(api: Api, main: HTMLElement, id: string, notice?: string): Promise<void> {
  loading(main, 'Run');
  const res = await api.get<Execution>(`/v1/executions/${encodeURIComponent(id)}`);
  if (!res.ok) return void main.replaceChildren(h('h1', {}, 'Run'), unavailable('This run', res));
  const run = res.body;
  const said = (run.result?.output as { summary?: unknown } | undefined)?.summary;
  const summary = typeof said === 'string' ? said : undefined;
  // the way back: a run's employee (its details and runs), or a creation's conversation
  const employee = run.employeeId ? await api.get<Employee>(`/v1/employees/${encodeURIComponent(run.employeeId)}`) : null;
  const back = run.employeeId
    ? h(
        'p',
        {},
        h(
          'a',
          { href: `#/employees/${encodeURIComponent(run.employeeId)}` },
          employee?.ok ? `All runs of ${employee.body.name}` : 'Its employee and all its runs',
        ),
      )
    : run.conversationId
      ? h('p', {}, h('a', { href: `#/chat/${encodeURIComponent(run.conversationId)}` }, 'Its conversation'))
      : null;
  const promptHolder = h('div', {});
  if (run.currentPrompt) {
    const prompt = run.currentPrompt;
    promptHolder.append(
      h('h2', {}, 'Waiting for your answer'),
      promptForm({
        prompt,
        submit: (answer) =>
          api.post(`/v1/executions/${encodeURIComponent(id)}/respond`, {
            promptId: prompt.promptId,
            kind: prompt.kind,
            payload: answer,
          }),
        stale: (notice) => setTimeout(() => void runPage(api, main, id, notice), 1_500),
        answered: () => {
          // the form is gone: focus stays on what replaced it, then on the next prompt or the run's heading
          const sent = h('p', { role: 'status', tabindex: -1 }, 'Answer sent.');
          promptHolder.replaceChildren(sent);
          sent.focus();
          setTimeout(
            () =>
              void runPage(api, main, id).then(() =>
                keepFocus(main.querySelector<HTMLElement>('form input, form textarea') ?? main.querySelector<HTMLElement>('h1')),
              ),
            1_500,
          );
        },
      }),
    );
  }
  // how far it is, as the chat shows a creation's (§13), and its status said in a live region: a run that moves
  // or ends while the page is open is shown and announced without a reload
  const progress = progressBar();
  const status = h('p', { role: 'status' });
  const showStatus = (now: Execution) => {
    const said = `Status: ${now.status}${now.phase ? ` · ${now.phase}` : ''}${now.progress !== null ? ` · ${now.progress}%` : ''} · started ${formatTime(now.createdAt)}`;
    // (the same words are not written again: a live region may say them again)
    if (status.textContent !== said) status.textContent = said;
    const ended = ENDED.has(now.status);
    progress.show(ended ? now.status : (now.phase ?? now.status), now.status === 'completed' ? 100 : now.progress);
  };
  showStatus(run);
  const effectsHolder = h('section', { 'aria-label': 'Effects' }, h('h2', {}, 'Effects'), h('p', { class: 'muted' }, 'Loading…'));
  const timelineHolder = h(
    'section',
    { 'aria-label': 'Timeline' },
    h('h2', {}, 'Timeline'),
    h('p', { class: 'muted' }, 'Loading…'),
  );
  const noticed = notice ? h('p', { role: 'alert', class: 'alert' }, notice) : null;
  main.replaceChildren(
    back ?? '',
    h('h1', {}, `Run ${id.slice(0, 8)}`),
    status,
    progress.element,
    noticed ?? '',
    run.result?.error ? h('p', { role: 'alert' }, `Ended: ${JSON.stringify(run.result.error)}`) : '',
    // what the run says it did (ARCHITECTURE §11: summarize)
    summary !== undefined ? h('section', { 'aria-label': 'Summary' }, h('h2', {}, 'Summary'), summaryView(summary)) : '',
    promptHolder,
    effectsHolder,
    timelineHolder,
  );
  // (an answer the gateway did not take: the form that sent it is gone, focus goes to why, not to the page's body)
  keepFocus(noticed);
  if (!ENDED.has(run.status))
    whileShown(
      status,
      async () => {
        const now = await api.get<Execution>(`/v1/executions/${encodeURIComponent(id)}`);
        if (!now.ok || !status.isConnected) return;
        // a new prompt, or one answered elsewhere, or the end: the page is drawn again (the form with it)
        if (now.body.status !== run.status || now.body.currentPrompt?.promptId !== run.currentPrompt?.promptId) {
          const pending = main.querySelector('form[aria-busy]');
          if (pending) return;
          await runPage(api, main, id);
          keepFocus(main.querySelector<HTMLElement>('form input, form textarea') ?? main.querySelector<HTMLElement>('h1'));
          return;
        }
        showStatus(now.body);
      },
      3_000,
    );
  const [effects, timeline] = await Promise.all([
    api.get<Effect[] | { effects: Effect[] }>(`/v1/executions/${encodeURIComponent(id)}/effects`),
    api.get<{ events: TimelineEntry[] }>(`/v1/executions/${encodeURIComponent(id)}/events`),
  ]);
  effectsHolder.replaceChildren(
    h('h2', {}, 'Effects'),
    effects.ok
      ? effectsTable(Array.isArray(effects.body) ? effects.body : effects.body.effects)
      : unavailable('Effects', effects),
  );
  timelineHolder.replaceChildren(
    h('h2', {}, 'Timeline'),
    timeline.ok
      ? h(
          'ol',
          { class: 'timeline' },
          timeline.body.events.map((e) =>
            h('li', {}, h('time', { datetime: e.ts }, formatTime(e.ts)), ` ${e.type} — ${e.summary}`),
          ),
        )
      : unavailable('The timeline', timeline),
  );
}

/**
 * A run's summary as its lines say it: a line that starts with "- " (or "* ") is an item of a list, each other line
 * a paragraph, in their order. Pure.
 */
export function summaryBlocks(summary: string): ({ kind: 'p'; text: string } | { kind: 'ul'; items: string[] })[] {
  const blocks: ({ kind: 'p'; text: string } | { kind: 'ul'; items: string[] })[] = [];
  for (const raw of summary.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const item = /^[-*•]\s+(.*)$/.exec(line)?.[1];
    const last = blocks.at(-1);
    if (item === undefined) blocks.push({ kind: 'p', text: line });
    else if (last?.kind === 'ul') last.items.push(item);
    else blocks.push({ kind: 'ul', items: [item] });
  }
  return blocks;
}

function summaryView(summary: string): HTMLElement {
  return h(
    'div',
    { class: 'summary' },
    summaryBlocks(summary).map((block) =>
      block.kind === 'p'
        ? h('p', {}, block.text)
        : h(
            'ul',
            {},
            block.items.map((item) => h('li', {}, item)),
          ),
    ),
  );
}

export async function inboxPage(api: Api, main: HTMLElement): Promise<void> {
  loading(main, 'Inbox');
  // a prompt that arrives while the inbox is open shows up without a reload
  const holder = h('div', {});
  let shown = '';
  const showInbox = async () => {
    const view = await inboxView(api);
    if (view.seen === shown) return;
    shown = view.seen;
    holder.replaceChildren(view.element);
  };
  await showInbox();
  main.replaceChildren(h('h1', {}, 'Inbox'), holder);
  whileShown(holder, showInbox);
}

async function inboxView(api: Api): Promise<{ seen: string; element: HTMLElement }> {
  let res = await api.get<{ executions: Execution[] }>('/v1/executions?status=awaiting_input');
  // a gateway without the filter: the caller's own executions that wait on a prompt
  if (!res.ok && (res.status === 400 || res.status === 404)) {
    const all = await api.get<{ executions: Execution[] }>('/v1/executions');
    res = all.ok ? { ...all, body: { executions: all.body.executions.filter((e) => e.status === 'waiting') } } : all;
  }
  if (!res.ok) return { seen: `failed ${res.status}`, element: unavailable('Your inbox', res) };
  const waiting = res.body.executions.filter((e) => e.currentPrompt);
  const seen = JSON.stringify(waiting.map((e) => [e.executionId, e.currentPrompt?.promptId]));
  const element =
    waiting.length === 0
      ? h('p', {}, 'Nothing is waiting for your answer.')
      : table(
          'Waiting for your answer',
          ['Question', 'Since', 'Open'],
          waiting.map((e) => {
            // each row's "Answer" is described by its question, so that a list of links tells them apart
            const question = h('span', { id: uid('question') }, e.currentPrompt?.messages[0] ?? '');
            return [
              question,
              text(formatTime(e.updatedAt ?? e.createdAt)),
              // a creation is answered in its conversation, a run (no conversation) on its own page
              h(
                'a',
                {
                  href: e.conversationId
                    ? `#/chat/${encodeURIComponent(e.conversationId)}`
                    : `#/runs/${encodeURIComponent(e.executionId)}`,
                  'aria-describedby': question.id,
                },
                'Answer',
              ),
            ];
          }),
        );
  return { seen, element };
}
