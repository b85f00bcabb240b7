/**
 * The finished employee (ARCHITECTURE §13): its workflows and gaps as tables, its Mermaid diagram as
 * a picture (Mermaid is a separate chunk, loaded only when a diagram is shown), the spec as a JSON
 * download, and Activate, which shows each webhook's URL and secret once.
 */
import type { EmployeeGraphSpec, EmployeeView } from '@hireloop/schemas';
import type { Api } from './api';
import { h, keepFocus, table } from './dom';

let diagrams = 0;

export type Spec = EmployeeGraphSpec;

/** A workflow of an activated employee: on, or off with the reason (e.g. waiting for a connection). */
export interface WorkflowState {
  workflowId: string;
  triggerId?: string;
  status: 'on' | 'off';
  reason?: string;
}

export interface ActivateResult {
  employeeId: string;
  version: number;
  status: string;
  hooks?: { workflowId: string; url: string; secret: string }[];
  /** per workflow: on, or off with the reason (waiting for a connection) */
  workflows?: WorkflowState[];
}

/** The most employees `GET /v1/employees` lists (`ApiLimits.list`; a unit test holds them equal). */
export const EMPLOYEE_LIST_LIMIT = 500;
/** Pauses between the looks for a just-registered employee: about eight seconds in all. */
const REGISTRATION_WAITS = [0, 250, 500, 1_000, 2_000, 4_000];
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The employee as `GET /v1/employees/:id` has it, once the employees projection has it: right after its creation
 * ends, the projection may not have caught up. It is looked for in the org's list first (which answers 200 either
 * way), so that the expected lag is no 404 (a browser reports each as an error); null when it is still not there
 * after the last look, or the gateway refuses (the page then says nothing of its status).
 */
export async function registeredEmployee(
  api: Api,
  employeeId: string,
  waits: readonly number[] = REGISTRATION_WAITS,
): Promise<EmployeeView | null> {
  for (const wait of waits) {
    await pause(wait);
    const list = await api.get<{ employees: EmployeeView[] }>('/v1/employees');
    // (unreachable or failing for a moment: looked for again; refused: not)
    if (!list.ok && (list.status === 0 || list.status >= 500)) continue;
    if (!list.ok) return null;
    const listed = list.body.employees.some((e) => e.employeeId === employeeId);
    // (a list cut at its limit may leave it out: then it is asked for by id)
    if (!listed && list.body.employees.length < EMPLOYEE_LIST_LIMIT) continue;
    const one = await api.get<EmployeeView>(`/v1/employees/${encodeURIComponent(employeeId)}`);
    if (one.ok) return one.body;
    if (one.status !== 404 && one.status !== 0 && one.status < 500) return null;
  }
  return null;
}

/** A workflow's state in words: its name and trigger as the spec says, on, or off and why. Pure. */
export function workflowStateLine(state: WorkflowState, spec?: Pick<Spec, 'workflows'>): string {
  const workflow = spec?.workflows.find((w) => w.id === state.workflowId);
  const trigger = state.triggerId ?? workflow?.trigger.triggerId;
  const named = workflow ? `${workflow.name}${trigger ? ` (${trigger})` : ''}` : state.workflowId;
  return state.status === 'on' ? `${named}: on` : `${named}: off — ${state.reason ?? 'it cannot run yet'}`;
}

/**
 * What an active employee's workflows let it do, in a sentence; `subject` names it ("version 3", "it"). Every
 * workflow on (or none reported): it runs; some off: those on run; all off: it starts nothing yet. Pure.
 */
export function activeLead(workflows: readonly WorkflowState[] | undefined, subject: string): string {
  const all = workflows ?? [];
  const off = all.filter((w) => w.status === 'off').length;
  if (all.length > 0 && off === all.length)
    return `Active, but none of its workflows can run yet: ${subject} starts nothing until they can.`;
  if (off > 0)
    return `Active: ${subject} runs when the triggers of its workflows that are on fire; ${off} of ${all.length} ${all.length === 1 ? 'is' : 'are'} off for now.`;
  return `Active: ${subject} runs when its triggers fire.`;
}

/** The status of a listed employee in a word or two: active, with how many of its workflows are off. Pure. */
export function statusLabel(status: string | undefined, workflows?: readonly WorkflowState[]): string {
  if (!status) return 'not reported';
  const all = workflows ?? [];
  const off = all.filter((w) => w.status === 'off').length;
  return status === 'active' && off > 0
    ? `active (${off} of ${all.length} ${all.length === 1 ? 'workflow' : 'workflows'} off)`
    : status;
}

/**
 * Each workflow on or off, and why (ARCHITECTURE §11: `GET /v1/employees/:id` shows them once activated), under a
 * sentence that says what they let the employee do; an inactive employee runs none of them.
 */
export function workflowStates(
  employee: { status?: string | undefined; workflows?: readonly WorkflowState[] | undefined },
  spec?: Pick<Spec, 'workflows'>,
): HTMLElement {
  if (employee.status !== 'active')
    return h(
      'div',
      { class: 'workflow-states' },
      employee.status === 'inactive' ? h('p', {}, 'Inactive: none of its workflows runs until it is activated.') : null,
    );
  const lead = h('p', {}, activeLead(employee.workflows, 'it'));
  const all = employee.workflows ?? [];
  return h(
    'div',
    { class: 'workflow-states' },
    lead,
    all.length > 0
      ? h(
          'ul',
          { 'aria-label': 'Its workflows' },
          all.map((w) => h('li', { class: w.status === 'off' ? 'off' : 'on' }, workflowStateLine(w, spec))),
        )
      : null,
  );
}

export function workflowsTable(spec: Spec): HTMLTableElement {
  return h(
    'table',
    {},
    h('caption', {}, 'Workflows'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['Workflow', 'Trigger', 'Steps', 'Capabilities', 'Risk'].map((c) => h('th', { scope: 'col' }, c)),
      ),
    ),
    h(
      'tbody',
      {},
      spec.workflows.map((w) => {
        const high = w.steps.filter((s) => s.risk === 'high').length;
        return h(
          'tr',
          {},
          h('th', { scope: 'row' }, w.name),
          h('td', {}, w.trigger.triggerId),
          h(
            'td',
            {},
            w.steps.length === 0
              ? 'none yet'
              : h(
                  'ol',
                  {},
                  w.steps.map((s) => h('li', {}, s.purpose)),
                ),
          ),
          h('td', {}, w.steps.length === 0 ? '—' : [...new Set(w.steps.map((s) => s.capabilityId))].join(', ')),
          h('td', {}, high > 0 ? `high (${high} ${high === 1 ? 'step needs' : 'steps need'} approval)` : 'low'),
        );
      }),
    ),
  );
}

const CATEGORY: Record<string, string> = {
  missing_integration: 'Missing integration',
  underspecified_task: 'Underspecified task',
  organizational_context: 'Organisational context',
  workflow_ambiguity: 'Workflow ambiguity',
};

export function gapsTable(spec: Spec): HTMLElement {
  return table(
    'Gaps',
    ['Gap', 'Kind', 'Blocking', 'Resolved'],
    spec.gaps.map((g) => [
      document.createTextNode(g.question),
      document.createTextNode(CATEGORY[g.category] ?? g.category),
      document.createTextNode(g.blocking ? 'yes' : 'no'),
      document.createTextNode(g.resolution === 'answered' ? `answered: ${g.answer ?? ''}` : g.resolution),
    ]),
    'No gaps: everything the job needs is connected and clear.',
  );
}

/** The diagram as an image: Mermaid renders SVG, shown through an <img> so nothing in it can run. */
export function diagramImage(
  source: string,
  alt = 'Employee diagram',
  caption = 'How the employee runs: each workflow from its trigger to its steps.',
): HTMLElement {
  const holder = h('figure', { class: 'diagram' }, h('p', { class: 'muted' }, 'Drawing the diagram…'));
  void (async () => {
    try {
      const { default: mermaid } = await import('mermaid');
      mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', flowchart: { htmlLabels: false }, theme: 'neutral' });
      const { svg } = await mermaid.render(`employee-diagram-${++diagrams}`, source);
      const img = h('img', { alt, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
      // drawn no larger than Mermaid laid it out
      const natural = /max-width:\s*([\d.]+)px/.exec(svg)?.[1];
      if (natural) img.style.maxWidth = `min(100%, ${natural}px)`;
      holder.replaceChildren(img, h('figcaption', {}, caption));
    } catch (error) {
      holder.replaceChildren(
        h('p', { role: 'alert' }, `The diagram could not be drawn: ${error instanceof Error ? error.message : String(error)}`),
        h('pre', {}, source),
      );
    }
  })();
  return holder;
}

function download(spec: Spec): void {
  const blob = new Blob([`${JSON.stringify(spec, null, 2)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: `${spec.name.replace(/[^A-Za-z0-9._-]+/g, '-') || 'employee'}.json` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * What an activation says before its hooks: that the employee runs, that only some of its workflows do, or that
 * none can run yet (each waits for a connection); then each workflow, on or off with why. Pure.
 */
export function activationSummary(result: ActivateResult, spec?: Pick<Spec, 'workflows'>): { lead: string; workflows: string[] } {
  return {
    lead: activeLead(result.workflows, `version ${result.version}`),
    workflows: (result.workflows ?? []).map((w) => workflowStateLine(w, spec)),
  };
}

/** The hooks of a fresh activation, shown once (the secrets are not shown again), after `activationSummary`. */
export function hooksView(result: ActivateResult, name?: string, spec?: Pick<Spec, 'workflows'>): HTMLElement {
  const hooks = result.hooks ?? [];
  const { lead, workflows } = activationSummary(result, spec);
  return h(
    'div',
    { class: 'hooks', role: 'status' },
    // (under a list of employees: which one it is)
    h('p', {}, name ? `${name}: ${lead}` : lead),
    // each workflow, on or off and why
    workflows.length > 0
      ? [
          h('p', {}, 'Its workflows:'),
          h(
            'ul',
            { class: 'workflow-states' },
            result.workflows?.map((w, i) => h('li', { class: w.status === 'off' ? 'off' : 'on' }, workflows[i] ?? '')),
          ),
        ]
      : null,
    hooks.length > 0
      ? [
          h('p', {}, 'Webhook addresses and secrets (copy them now: the secrets are shown only once):'),
          h(
            'dl',
            {},
            hooks.map((hook) => [
              h('dt', {}, hook.workflowId),
              h('dd', {}, 'URL: ', h('code', {}, hook.url)),
              h('dd', {}, 'Secret: ', h('code', {}, hook.secret)),
            ]),
          ),
        ]
      : null,
  );
}

/**
 * Activate (or deactivate) by id; the gateway's answer, or why not, goes into `out`. The answer, or null. `before`:
 * what to wait for first (the chat's look for the employee just registered).
 */
export async function toggleActivation(
  api: Api,
  employeeId: string,
  activate: boolean,
  out: HTMLElement,
  /** the employee's name, said with the answer where several employees are listed */
  name?: string,
  spec?: Pick<Spec, 'workflows'>,
  before?: Promise<unknown>,
): Promise<ActivateResult | null> {
  out.replaceChildren(h('p', { class: 'muted' }, activate ? 'Activating…' : 'Deactivating…'));
  await before;
  const res = await api.post<ActivateResult>(
    `/v1/employees/${encodeURIComponent(employeeId)}/${activate ? 'activate' : 'deactivate'}`,
  );
  if (res.ok) {
    out.replaceChildren(
      activate
        ? hooksView(res.body, name, spec)
        : h('p', { role: 'status' }, `${name ? `${name}: ` : ''}Inactive: its triggers no longer start runs.`),
    );
    return res.body;
  }
  const why =
    res.status === 404 && res.code !== 'not_found'
      ? 'this gateway cannot run employees yet'
      : res.status === 404
        ? `${res.message} (it may not be registered yet, or this gateway cannot run employees yet)`
        : res.message;
  out.replaceChildren(h('p', { role: 'alert' }, `Could not ${activate ? 'activate' : 'deactivate'}: ${why}`));
  return null;
}

/**
 * The chat's word on an employee made earlier and active already: what its workflows let it do, each on or off with
 * why, and where to switch it (its webhook secrets were shown when it was activated).
 */
function activeAlready(employee: EmployeeView, spec: Spec): HTMLElement {
  const workflows = employee.workflows ?? [];
  const allOn = workflows.every((w) => w.status === 'on');
  return h(
    'div',
    { role: 'status' },
    // (every workflow on: the words the page has always said)
    h('p', {}, allOn ? 'Active: its triggers start runs.' : activeLead(workflows, 'it')),
    workflows.length > 0
      ? h(
          'ul',
          { class: 'workflow-states', 'aria-label': 'Its workflows' },
          workflows.map((w) => h('li', { class: w.status === 'off' ? 'off' : 'on' }, workflowStateLine(w, spec))),
        )
      : null,
    h(
      'p',
      {},
      'Its webhook secrets were shown when it was activated; turn it off or on from ',
      h('a', { href: `#/employees/${encodeURIComponent(employee.employeeId)}` }, 'its page'),
      '.',
    ),
  );
}

/** The whole finished-employee section. */
export function employeeView(
  api: Api,
  spec: Spec,
  // (the chat's and the employee page's main heading is an h1: the employee is a section under it)
  heading: 'h2' | 'h3' = 'h2',
  /**
   * as the employees projection has it, on the employee's own page: then only the switch that applies is
   * enabled, and a second one turns it off (named "Turn off": a button whose name holds "Activate" would be
   * found by a search for that one). Unknown (the chat, just made): "Activate" alone.
   */
  status?: string,
  /** told the gateway's answer after a switch (the employee page's status line and workflows) */
  onStatus?: (result: ActivateResult) => void,
): HTMLElement {
  const out = h('div', { class: 'activation' });
  const known = status === 'active' || status === 'inactive';
  const activate = h(
    'button',
    { type: 'button', class: 'primary', disabled: status === 'active' },
    'Activate',
  ) as HTMLButtonElement;
  const deactivate = known
    ? (h('button', { type: 'button', disabled: status === 'inactive' }, 'Turn off') as HTMLButtonElement)
    : null;
  // the chat's view: the employee may be made a moment ago, before the employees projection has it
  const registered = known ? null : registeredEmployee(api, spec.employeeId);
  let busy = false;
  const toggle = async (on: boolean) => {
    if (busy) return;
    busy = true;
    // (an activation pressed while the chat still looks for the employee waits for that look, not for a 404; found
    // active already, it is said so — activating again would replace the webhook secrets shown once)
    const found = on && registered ? await registered : null;
    if (found?.status === 'active' && !deactivate) {
      busy = false;
      activate.disabled = true;
      out.replaceChildren(activeAlready(found, spec));
      keepFocus(out.querySelector<HTMLElement>('p'));
      return;
    }
    const result = await toggleActivation(api, spec.employeeId, on, out, undefined, spec, registered ?? undefined);
    busy = false;
    if (!result) return;
    onStatus?.(result);
    if (!deactivate) {
      // the chat's view, just made: activated, "Activate" is disabled — pressed again it would replace the secrets
      // shown once; the employee's page turns it off or on. Focus goes to what the activation said (the button
      // disabled under it would leave it on the page's body).
      activate.disabled = true;
      keepFocus(out.querySelector<HTMLElement>('p'));
      return;
    }
    // the button pressed is disabled now: focus goes to the one that undoes it, not to the page's body
    activate.disabled = on;
    deactivate.disabled = !on;
    (on ? deactivate : activate).focus();
  };
  activate.addEventListener('click', () => void toggle(true));
  deactivate?.addEventListener('click', () => void toggle(false));
  // the chat's view of an employee made earlier (a reload, a conversation opened again): activated already, it is
  // said so, with each workflow on or off, and "Activate" is disabled — a second activation would replace the
  // webhook secrets shown once
  void registered?.then((employee) => {
    if (employee?.status !== 'active' || out.childElementCount > 0 || !out.isConnected) return;
    activate.disabled = true;
    out.replaceChildren(activeAlready(employee, spec));
  });
  const failed = spec.validation.checks.filter((c) => !c.passed);
  const unsatisfied = spec.gaps.filter((g) => g.resolution === 'unsatisfied');
  return h(
    'section',
    { class: 'employee', 'aria-label': `Employee ${spec.name}` },
    h(heading, {}, `${spec.name}${spec.version ? ` (version ${spec.version})` : ''}`),
    h('p', { class: 'job' }, spec.jobDescription),
    h(
      'p',
      {},
      spec.validation.passed
        ? `Validated: all ${spec.validation.checks.length} checks passed.`
        : `Validation: ${failed.length} check(s) failed — ${failed.map((c) => c.detail).join('; ')}`,
    ),
    unsatisfied.length > 0
      ? h(
          'p',
          { class: 'notice' },
          `${unsatisfied.length} question${unsatisfied.length === 1 ? ' was' : 's were'} left unanswered, so part of this employee cannot run yet: `,
          unsatisfied.map((g) => g.question).join(' '),
        )
      : null,
    h(
      'div',
      { class: 'table-wrap', role: 'region', 'aria-label': 'Workflows (scrolls sideways when narrow)', tabindex: 0 },
      workflowsTable(spec),
    ),
    gapsTable(spec),
    diagramImage(spec.diagram),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'button', onClick: () => download(spec) }, 'Download spec'),
      activate,
      deactivate,
    ),
    out,
  );
}
