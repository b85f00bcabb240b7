/**
 * The finished employee (ARCHITECTURE §13): its workflows and gaps as tables, its Mermaid diagram as
 * a picture (Mermaid is a separate chunk, loaded only when a diagram is shown), the spec as a JSON
 * download, and Activate, which shows each webhook's URL and secret once.
 */
import type { EmployeeGraphSpec } from '@hireloop/schemas';
import type { Api } from './api';
import { h, keepFocus, table } from './dom';

export type Spec = EmployeeGraphSpec;

export interface ActivateResult {
  employeeId: string;
  version: number;
  status: string;
  hooks?: { workflowId: string; url: string; secret: string }[];
  /** per workflow: on, or off with the reason (waiting for a connection) */
  workflows?: { workflowId: string; status: 'on' | 'off'; reason?: string }[];
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

let diagrams = 0;

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
 * What an activation says before its hooks: that the employee runs, or that none of its workflows can
 * run yet (each waits for a connection), and each workflow left off with why. Pure.
 */
export function activationSummary(result: ActivateResult): { lead: string; off: string[] } {
  const workflows = result.workflows ?? [];
  const off = workflows.filter((w) => w.status === 'off');
  const lead =
    workflows.length > 0 && off.length === workflows.length
      ? `Active, but none of its workflows can run yet: version ${result.version} starts nothing until they can.`
      : `Active: version ${result.version} runs when its triggers fire.`;
  return { lead, off: off.map((w) => `${w.workflowId}: ${w.reason ?? 'it cannot run yet'}`) };
}

/** The hooks of a fresh activation, shown once (the secrets are not shown again), after `activationSummary`. */
export function hooksView(result: ActivateResult, name?: string): HTMLElement {
  const hooks = result.hooks ?? [];
  const { lead, off } = activationSummary(result);
  return h(
    'div',
    { class: 'hooks', role: 'status' },
    // (under a list of employees: which one it is)
    h('p', {}, name ? `${name}: ${lead}` : lead),
    off.length > 0
      ? [
          h('p', {}, 'Off for now:'),
          h(
            'ul',
            { class: 'off' },
            off.map((line) => h('li', {}, line)),
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

/** Activate (or deactivate) by id; the gateway's answer, or why not, goes into `out`. */
export async function toggleActivation(
  api: Api,
  employeeId: string,
  activate: boolean,
  out: HTMLElement,
  /** the employee's name, said with the answer where several employees are listed */
  name?: string,
): Promise<boolean> {
  out.replaceChildren(h('p', { class: 'muted' }, activate ? 'Activating…' : 'Deactivating…'));
  const res = await api.post<ActivateResult>(
    `/v1/employees/${encodeURIComponent(employeeId)}/${activate ? 'activate' : 'deactivate'}`,
  );
  if (res.ok) {
    out.replaceChildren(
      activate
        ? hooksView(res.body, name)
        : h('p', { role: 'status' }, `${name ? `${name}: ` : ''}Inactive: its triggers no longer start runs.`),
    );
    return true;
  }
  const why =
    res.status === 404 && res.code !== 'not_found'
      ? 'this gateway cannot run employees yet'
      : res.status === 404
        ? `${res.message} (it may not be registered yet, or this gateway cannot run employees yet)`
        : res.message;
  out.replaceChildren(h('p', { role: 'alert' }, `Could not ${activate ? 'activate' : 'deactivate'}: ${why}`));
  return false;
}

/** Disables "Activate" and says so when the employee is active already (its page switches it off). */
async function showWhenActive(api: Api, employeeId: string, activate: HTMLButtonElement, out: HTMLElement): Promise<void> {
  const res = await api.get<{ status?: string }>(`/v1/employees/${encodeURIComponent(employeeId)}`);
  if (!res.ok || res.body.status !== 'active' || out.childElementCount > 0) return;
  activate.disabled = true;
  out.replaceChildren(
    h(
      'p',
      { role: 'status' },
      'Active: its triggers start runs. Its webhook secrets were shown when it was activated; turn it off or on from ',
      h('a', { href: `#/employees/${encodeURIComponent(employeeId)}` }, 'its page'),
      '.',
    ),
  );
}

/** The whole finished-employee section. */
export function employeeView(
  api: Api,
  spec: Spec,
  heading: 'h2' | 'h3' = 'h3',
  /**
   * as the employees projection has it, on the employee's own page: then only the switch that applies is
   * enabled, and a second one turns it off (named "Turn off": a button whose name holds "Activate" would be
   * found by a search for that one). Unknown (the chat, just made): "Activate" alone.
   */
  status?: string,
  /** told the new status after a switch (the employee page's status line) */
  onStatus?: (status: 'active' | 'inactive') => void,
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
  const toggle = async (on: boolean) => {
    if (!(await toggleActivation(api, spec.employeeId, on, out))) return;
    onStatus?.(on ? 'active' : 'inactive');
    if (!deactivate) {
      // the chat's view, just made: activated, "Activate" is disabled — pressed again it would replace the secrets
      // shown once; the employee's page turns it off or on. Focus goes to what the activation said.
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
  // said so, and "Activate" is disabled — a second activation would replace the webhook secrets shown once
  if (!known) void showWhenActive(api, spec.employeeId, activate, out);
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
