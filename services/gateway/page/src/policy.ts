/**
 * The org's policy in an employee's view (ARCHITECTURE §12, §13): which tools its steps may call, the
 * limits on their arguments, the quiet hours, the rates and the budgets of a run — read from the
 * public `GET /v1/orgs/:orgId/policy`, shown as a table "Policy" (rule, setting).
 */
import type { CompiledGraph, OrgPolicyView } from '@hireloop/schemas';
import type { Api } from './api';
import { formatTime, h } from './dom';

const list = (items: readonly string[] | undefined, none: string) => (items && items.length > 0 ? items.join(', ') : none);

/** The rules of a policy in words, one [rule, setting] per row; the spec's budgets win over the org's defaults. */
export function policyRows(
  view: Pick<OrgPolicyView, 'policy' | 'updatedAt'>,
  budgets?: Partial<CompiledGraph['budgets']>,
): [string, string][] {
  const p = view.policy;
  const q = p.quietHours;
  const steps = budgets?.maxSteps ?? p.budgets?.maxSteps;
  const calls = budgets?.maxToolCalls ?? p.budgets?.maxToolCalls;
  const budget = [steps ? `${steps} steps` : '', calls ? `${calls} tool calls` : ''].filter(Boolean).join(', ');
  return [
    ['Allowed tools', list(p.allowedTools, 'every connected tool')],
    ['Denied tools', list(p.deniedTools, 'none')],
    [
      'Argument limits',
      list(
        p.argumentLimits?.map((l) => `${l.capabilityId}: ${l.argument} at most ${l.max}`),
        'none',
      ),
    ],
    [
      'Quiet hours',
      q
        ? `${q.start}–${q.end} ${q.timeZone}: high-risk steps ${q.during === 'defer' ? 'are deferred until they end' : 'run only when approved'}`
        : 'none',
    ],
    [
      'Rates',
      list(
        p.rates?.map((r) => `${r.capabilityId} ${r.rate}`),
        'the default rate for every tool',
      ),
    ],
    ['Budgets of a run', budget || 'no limit'],
    ['Policy changed', view.updatedAt ? formatTime(view.updatedAt) : 'never set'],
  ];
}

/** The "Policy" section: loads the org's policy and shows it, or says why it cannot. */
export function policySection(api: Api, orgId: string, budgets?: Partial<CompiledGraph['budgets']>): HTMLElement {
  const section = h('section', { 'aria-label': 'Policy' }, h('h2', {}, 'Policy'), h('p', { class: 'muted' }, 'Loading…'));
  void api.get<OrgPolicyView>(`/v1/orgs/${encodeURIComponent(orgId)}/policy`).then((res) => {
    section.replaceChildren(
      h('h2', {}, 'Policy'),
      !res.ok
        ? h('p', { class: 'notice', role: 'status' }, `The org's policy could not be loaded: ${res.message}`)
        : h(
            'div',
            { class: 'table-wrap' },
            h(
              'table',
              {},
              h('caption', {}, 'Policy'),
              h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Rule'), h('th', { scope: 'col' }, 'Setting'))),
              h(
                'tbody',
                {},
                policyRows(res.body, budgets).map(([rule, setting]) =>
                  h('tr', {}, h('th', { scope: 'row' }, rule), h('td', {}, setting)),
                ),
              ),
            ),
          ),
    );
  });
  return section;
}
