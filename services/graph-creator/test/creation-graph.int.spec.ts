import { randomUUID } from 'node:crypto';
import type { Analyst, CapabilityMatch } from '@hireloop/analyst';
import { createCheckpointer, createPool } from '@hireloop/platform';
import { type CatalogCapability, EmployeeGraphSpec, validate } from '@hireloop/schemas';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { creationAdapter } from '../src/creation/adapter';
import { policyBudgets } from '../src/creation/budgets';
import type { CatalogSource } from '../src/creation/ports';
import { postgresPolicies } from '../src/tools/guards';
import {
  allProviders,
  answering,
  catalogOf,
  create,
  isReview,
  offlineAnalyst,
  optionIds,
  questionsOf,
  recommendedOf,
} from './creation-harness';
import { setPolicy } from './policies';

// The creation graph on real LangGraph and a real PostgresSaver, driven in-process (no Kafka):
// given a job description and an org's connections, when the human answers each prompt, then these
// prompts were asked and this employee spec comes out.

const pool = createPool(inject('databaseUrl'));
const checkpointer = createCheckpointer(pool);
afterAll(() => pool.end());

/** DocuSign is not connected in the dev org; Gmail can stand in for it. */
const CONTRACTS =
  'Contracts Assistant. When a deal moves to Closed Won in HubSpot, email the contract to the customer for e-signature via DocuSign.';
/** Nothing says what starts the work. */
const NO_TRIGGER = 'Sales Helper. Create a contact in HubSpot and send them a welcome email with Gmail.';
/** deal_stage_changed needs the stage, which the description does not give. */
const ANY_STAGE = 'Deal Desk. When a HubSpot deal changes stage, post a message in #deals on Slack.';
/** "handle it" says nothing about what to do. */
const VAGUE = 'Support Helper. When a ticket arrives in Zendesk, handle it.';
/** Every part named and connected in the dev org. */
const COMPLETE = 'Mailer. When a ticket arrives in Zendesk, send an email to the customer with Gmail.';
/** A blocking parameter question, then a nice-to-have missing integration. */
const STAGE_AND_DOCUSIGN =
  'Deal Desk. When a HubSpot deal changes stage, email the contract to the customer for e-signature via DocuSign.';

const gapOf = (spec: EmployeeGraphSpec, category: string) => spec.gaps.find((g) => g.category === category);

describe('creation graph: it asks about exactly the gaps it should', () => {
  it('a missing integration: offers the connected alternatives and connecting it; the chosen alternative runs the step', async () => {
    const run = await create(checkpointer, CONTRACTS, answering({ selected: ['gmail.send_email'] }));

    const [first, second] = run.prompts;
    expect(run.prompts).toHaveLength(2);
    expect(first?.kind).toBe('options');
    expect(first?.messages[0]).toContain('docusign');
    expect(optionIds(first)).toEqual(['gmail.send_email', 'connect:docusign']);
    expect(recommendedOf(first)).toBe('gmail.send_email');
    expect(second && isReview(second)).toBe(true);

    const wf = run.spec.workflows[0];
    expect(wf?.steps.map((s) => s.capabilityId)).toEqual(['gmail.send_email']);
    expect(wf?.trigger).toEqual({ triggerId: 'hubspot.deal_stage_changed', params: { stage: 'Closed Won' } });
    expect(run.spec.gaps).toEqual([
      expect.objectContaining({
        category: 'missing_integration',
        providerId: 'docusign',
        resolution: 'answered',
        answer: 'gmail.send_email',
      }),
    ]);
    expect(run.spec.validation.passed).toBe(true);
  });

  it('a missing integration with no alternative is blocking and offers only to connect it', async () => {
    const run = await create(
      checkpointer,
      'Contracts Assistant. When a deal moves to Closed Won in HubSpot, send the customer a DocuSign envelope with the contract.',
    );
    const [first] = run.prompts;
    expect(optionIds(first)).toEqual(['connect:docusign']);
    expect(first?.messages[1]).toContain('needed before the employee can run');
    expect(gapOf(run.spec, 'missing_integration')).toMatchObject({ blocking: true, answer: 'connect:docusign' });
  });

  it('an ambiguous start: asks what starts the workflow, then the parameter the chosen trigger needs', async () => {
    const run = await create(
      checkpointer,
      NO_TRIGGER,
      answering({ selected: ['schedule.cron'] }, { answers: { q1: '30 8 * * 1-5' } }),
    );

    const [start, when, review] = run.prompts;
    expect(run.prompts).toHaveLength(3);
    expect(start?.kind).toBe('options');
    expect(start?.messages[0]).toContain('What should start');
    expect(optionIds(start)).toEqual(['webhook.incoming_webhook', 'schedule.cron']);
    expect(when?.kind).toBe('questions');
    expect(questionsOf(when)).toHaveLength(1);
    expect(questionsOf(when)[0]).toMatchObject({ exampleAnswer: '0 9 * * 1' });
    expect(questionsOf(when)[0]?.text).toContain('cron expression');
    expect(review && isReview(review)).toBe(true);

    expect(run.spec.workflows[0]?.trigger).toEqual({ triggerId: 'schedule.cron', params: { expression: '30 8 * * 1-5' } });
    expect(run.spec.workflows[0]?.steps.map((s) => s.capabilityId)).toEqual(['hubspot.create_contact', 'gmail.send_email']);
    expect(run.spec.gaps).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: 'gap:wf-1:trigger',
          category: 'workflow_ambiguity',
          resolution: 'answered',
          answer: 'schedule.cron',
        }),
        expect.objectContaining({
          id: 'gap:wf-1:param:expression',
          category: 'underspecified_task',
          resolution: 'answered',
          answer: '30 8 * * 1-5',
        }),
      ]),
    );
    expect(run.spec.validation.passed).toBe(true);
  });

  it('a trigger parameter the description does not give: one questions prompt, the answer lands in the trigger', async () => {
    const run = await create(checkpointer, ANY_STAGE, answering({ answers: { q1: 'Contract Sent' } }));

    const [first] = run.prompts;
    expect(run.prompts).toHaveLength(2);
    expect(first?.kind).toBe('questions');
    expect(questionsOf(first)).toEqual([expect.objectContaining({ id: 'q1', exampleAnswer: 'Closed Won' })]);
    expect(questionsOf(first)[0]?.text).toContain('stage');
    expect(run.spec.workflows[0]?.trigger).toEqual({
      triggerId: 'hubspot.deal_stage_changed',
      params: { stage: 'Contract Sent' },
    });
    expect(run.spec.gaps).toEqual([
      expect.objectContaining({ id: 'gap:wf-1:param:stage', blocking: true, resolution: 'answered', answer: 'Contract Sent' }),
    ]);
  });

  it('a vague task with no tool: one blocking options prompt from the catalog; a description is read into steps', async () => {
    const reply = 'Reply to the customer in the ticket and tag it by product';
    const run = await create(checkpointer, VAGUE, answering({ selected: ['describe'] }, { answers: { q1: reply } }));

    const [first, second] = run.prompts;
    expect(run.prompts).toHaveLength(3);
    expect(first?.kind).toBe('options');
    expect(first?.messages[0]).toContain('handle it');
    expect(optionIds(first)).toContain('zendesk.reply_ticket');
    expect(optionIds(first).at(-1)).toBe('describe');
    expect(second?.kind).toBe('questions');
    expect(gapOf(run.spec, 'underspecified_task')).toMatchObject({ blocking: true, resolution: 'answered' });
    expect(run.spec.workflows[0]?.status).toBe('satisfied');
    expect(run.spec.workflows[0]?.steps.map((st) => st.capabilityId)).toEqual(['zendesk.reply_ticket', 'zendesk.update_ticket']);
  });

  it('nothing to ask: a fully specified description with its providers connected gets only the review', async () => {
    for (const [description, connected] of [
      [COMPLETE, undefined],
      [CONTRACTS, allProviders],
    ] as const) {
      const run = await create(checkpointer, description, answering(), { catalog: { forOrg: async () => catalogOf(connected) } });
      expect(run.prompts).toHaveLength(1);
      expect(run.prompts[0] && isReview(run.prompts[0])).toBe(true);
      expect(run.spec.gaps).toEqual([]);
      expect(run.spec.validation.passed).toBe(true);
    }
  });
});

describe('creation graph: back, skip and restart', () => {
  it('back returns to the previous options prompt with the earlier choice recommended', async () => {
    const run = await create(checkpointer, NO_TRIGGER, answering({ selected: ['schedule.cron'] }, { action: 'back' }));

    const [first, second, again, when, review] = run.prompts;
    expect(recommendedOf(first)).toBe('webhook.incoming_webhook');
    expect(second?.allowedActions).toContain('back');
    expect(optionIds(again)).toEqual(optionIds(first));
    expect(recommendedOf(again)).toBe('schedule.cron');
    // the prompt after `back` answered as recommended again: the cron question comes back
    expect(questionsOf(when)[0]?.text).toContain('cron expression');
    expect(review && isReview(review)).toBe(true);
    expect(run.spec.workflows[0]?.trigger.triggerId).toBe('schedule.cron');
  });

  it('back returns to the previous questions prompt with the earlier answer as the example', async () => {
    const run = await create(
      checkpointer,
      STAGE_AND_DOCUSIGN,
      answering({ answers: { q1: 'Contract Sent' } }, { action: 'back' }),
    );

    const [first, second, again] = run.prompts;
    expect(questionsOf(first)[0]?.exampleAnswer).toBe('Closed Won');
    expect(optionIds(second)).toContain('connect:docusign');
    expect(second?.allowedActions).toContain('back');
    expect(again?.kind).toBe('questions');
    expect(questionsOf(again)[0]?.text).toBe(questionsOf(first)[0]?.text);
    expect(questionsOf(again)[0]?.exampleAnswer).toBe('Contract Sent');
    expect(again?.allowedActions).not.toContain('back');
    expect(run.spec.workflows[0]?.trigger.params).toEqual({ stage: 'Contract Sent' });
  });

  it('skip of a blocking gap leaves its workflow unsatisfied, with the reason', async () => {
    const run = await create(checkpointer, VAGUE, answering({ action: 'skip' }));

    expect(run.prompts).toHaveLength(2);
    const wf = run.spec.workflows[0];
    expect(wf?.status).toBe('unsatisfied');
    expect(wf?.unsatisfiedReason).toContain('blocking question skipped');
    expect(wf?.unsatisfiedReason).toContain('handle it');
    expect(gapOf(run.spec, 'underspecified_task')).toMatchObject({ blocking: true, resolution: 'unsatisfied' });
    expect(gapOf(run.spec, 'underspecified_task')).not.toHaveProperty('answer');
  });

  it('skip of a nice-to-have takes its default', async () => {
    const run = await create(checkpointer, CONTRACTS, answering({ action: 'skip' }));

    expect(run.prompts[0]?.messages[1]).toContain('If you skip, I will use gmail.send_email');
    expect(run.spec.workflows[0]?.steps.map((s) => s.capabilityId)).toEqual(['gmail.send_email']);
    expect(run.spec.workflows[0]?.status).toBe('satisfied');
    expect(gapOf(run.spec, 'missing_integration')).toMatchObject({ resolution: 'defaulted', default: 'gmail.send_email' });
  });

  it('restart starts again from the job description: the first prompt again, earlier answers gone', async () => {
    const run = await create(
      checkpointer,
      NO_TRIGGER,
      answering({ selected: ['schedule.cron'] }, { action: 'restart' }, { selected: ['webhook.incoming_webhook'] }),
    );

    const [first, second, afterRestart, review] = run.prompts;
    expect(questionsOf(second)[0]?.text).toContain('cron expression');
    expect(afterRestart).toEqual(first);
    expect(review && isReview(review)).toBe(true);
    expect(run.prompts).toHaveLength(4);

    expect(run.state.asked).toHaveLength(1);
    expect(run.spec.workflows[0]?.trigger).toEqual({ triggerId: 'webhook.incoming_webhook', params: {} });
    expect(run.spec.gaps.find((g) => g.id === 'gap:wf-1:trigger')).toMatchObject({ answer: 'webhook.incoming_webhook' });
    expect(run.spec.gaps.some((g) => g.id === 'gap:wf-1:param:expression')).toBe(false);
    expect(run.spec.history.promptsAsked).toBe(4);
  });
});

describe('creation graph: review with the user', () => {
  it('approve produces a valid EmployeeGraphSpec: compiled, validated, with its diagram and history', async () => {
    const run = await create(checkpointer, CONTRACTS, answering({ selected: ['gmail.send_email'] }, { selected: ['approve'] }));

    const checked = validate(EmployeeGraphSpec, run.employee);
    expect(checked.ok ? [] : checked.errors).toEqual([]);
    const { spec } = run;
    expect(run.state.decision).toBe('approve');
    expect(spec).toMatchObject({ orgId: 'acme', name: 'Contracts Assistant', version: 1, jobDescription: CONTRACTS });
    expect(spec.compiled.nodes.map((n) => n.id)).toEqual(['__start__', 'wf-1.trigger', 'wf-1.wf-1.s1', '__end__']);
    expect(spec.compiled.tools).toEqual(['gmail.send_email']);
    expect(spec.compiled.interruptPoints).toEqual(['wf-1.wf-1.s1']);
    expect(spec.validation.passed).toBe(true);
    expect(spec.validation.checks.map((c) => c.id)).toEqual([
      'handoffs_defined',
      'loops_bounded',
      'capabilities_known',
      'capabilities_connected',
      'budgets_present',
      'state_reads_written',
      'trigger_params_valid',
      'workflow_has_steps',
      'inputs_bound',
      'references_earlier_steps',
      'depends_on_acyclic',
      'cron_valid',
    ]);
    expect(spec.workflows[0]?.steps[0]?.inputs).toMatchObject({
      to: expect.anything(),
      subject: expect.anything(),
      body: expect.anything(),
    });
    expect(spec.diagram.startsWith('flowchart TD')).toBe(true);
    expect(spec.diagram).toContain('gmail.send_email (approval)');
    expect(run.prompts.at(-1)?.messages[1]).toContain(spec.diagram);
    expect(spec.history).toEqual({ iterations: 2, promptsAsked: 2, routingTrace: [] });

    // the run is checkpointed in Postgres under its execution id
    const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM langgraph.checkpoints WHERE thread_id = $1', [
      run.executionId,
    ]);
    expect(Number(rows[0]?.n)).toBeGreaterThan(0);
  });

  it('revise asks what to change and analyses again with the change', async () => {
    const change = 'Every Friday at 4pm, post a summary in #support on Slack.';
    const run = await create(checkpointer, COMPLETE, answering({ selected: ['revise'] }, { answers: { change } }));

    const [review, what, again] = run.prompts;
    expect(review && isReview(review)).toBe(true);
    expect(optionIds(review)).toEqual(['approve', 'revise', 'cancel']);
    expect(what?.kind).toBe('questions');
    expect(questionsOf(what)).toEqual([expect.objectContaining({ id: 'change', required: true })]);
    expect(again && isReview(again)).toBe(true);
    expect(again?.messages[0]).toContain('2 workflow(s)');

    expect(run.state.revisions).toEqual([change]);
    expect(run.spec.workflows.map((w) => w.trigger)).toEqual([
      { triggerId: 'zendesk.new_ticket', params: {} },
      { triggerId: 'schedule.cron', params: { expression: '0 16 * * 5' } },
    ]);
    expect(run.spec.workflows[1]?.steps.map((s) => s.capabilityId)).toEqual(['slack.post_message']);
    expect(run.spec.history.promptsAsked).toBe(3);
  });

  it('revise is no longer offered once the revisions run out', async () => {
    const run = await create(
      checkpointer,
      COMPLETE,
      answering({ selected: ['revise'] }, { answers: { change: 'Every Friday at 4pm, post a summary in #support on Slack.' } }),
      { maxRevisions: 1 },
    );
    expect(optionIds(run.prompts[2])).toEqual(['approve', 'cancel']);
  });

  it('cancel ends the creation with no employee', async () => {
    const run = await create(checkpointer, COMPLETE, answering({ selected: ['cancel'] }));

    expect(run.prompts).toHaveLength(1);
    expect(run.state.decision).toBe('cancel');
    expect(run.employee).toBeNull();
    expect(run.state.employee).toBeNull();
  });
});

describe('creation graph: a failed validation routes back to the step that owns it', () => {
  /** The offline analyst, with its capability matches changed by `edit`. */
  const editingMatches = (edit: (match: CapabilityMatch) => CapabilityMatch): Analyst => {
    const offline = offlineAnalyst();
    return { ...offline, matchCapabilities: async (wf, catalog) => edit(await offline.matchCapabilities(wf, catalog)) };
  };
  const replaceCapability = (from: string, to: string, candidates: string[]) => (m: CapabilityMatch) => ({
    ...m,
    steps: m.steps.map((s) => (s.capabilityId === from ? { ...s, capabilityId: to, candidates } : s)),
  });

  it('an unknown capability id from the analyst is replaced by a known candidate while matching', async () => {
    const analyst = editingMatches(replaceCapability('gmail.send_email', 'gmail.send_mail', ['gmail.nope', 'gmail.send_email']));
    const run = await create(checkpointer, COMPLETE, answering(), { analyst });

    expect(run.spec.workflows[0]?.steps.map((s) => s.capabilityId)).toEqual(['gmail.send_email']);
    expect(run.spec.validation.passed).toBe(true);
    expect(run.spec.history.routingTrace).toEqual([]);
  });

  it('a capability unknown at validation routes back to matching, which excludes it; the spec then passes', async () => {
    // the hub retires a capability between matching and validation (a stale catalog at matching time)
    const legacy: CatalogCapability = {
      ...(catalogOf().capabilities.find((c) => c.id === 'gmail.send_email') as CatalogCapability),
      id: 'gmail.send_email_legacy',
      name: 'send_email_legacy',
    };
    let retired = false;
    const catalog: CatalogSource = {
      forOrg: async () => {
        const base = catalogOf();
        return retired ? base : { ...base, capabilities: [...base.capabilities, legacy] };
      },
    };
    const offline = offlineAnalyst();
    const analyst: Analyst = {
      ...offline,
      matchCapabilities: async (wf, cat) => {
        const match = replaceCapability('gmail.send_email', legacy.id, ['gmail.send_email'])(
          await offline.matchCapabilities(wf, cat),
        );
        retired = true;
        return match;
      },
    };
    const run = await create(checkpointer, COMPLETE, answering(), { analyst, catalog });

    expect(run.spec.history.routingTrace).toEqual([
      {
        attempt: 1,
        failedCheck: 'capabilities_known',
        routedTo: 'match_workflows',
        matchedRules: expect.arrayContaining(['unknown_capability_rematch']),
      },
    ]);
    expect(run.state.excludedCapabilities).toEqual([legacy.id]);
    expect(run.spec.workflows[0]?.steps.map((s) => s.capabilityId)).toEqual(['gmail.send_email']);
    expect(run.spec.validation.passed).toBe(true);
    expect(run.prompts).toHaveLength(1);
  });

  it('schedule.cron without its expression: the expression is asked and the answer makes the spec pass', async () => {
    const analyst = editingMatches((m) => ({
      ...m,
      trigger: { triggerId: 'schedule.cron', params: {}, confidence: 0.9, alternatives: [] },
    }));
    const run = await create(checkpointer, COMPLETE, answering({ answers: { q1: '0 7 * * *' } }), { analyst });

    const [first] = run.prompts;
    expect(first?.kind).toBe('questions');
    expect(questionsOf(first)[0]?.text).toContain('cron expression');
    expect(run.spec.workflows[0]?.trigger).toEqual({ triggerId: 'schedule.cron', params: { expression: '0 7 * * *' } });
    expect(run.spec.validation.passed).toBe(true);
    // gap identification finds the missing parameter before compiling, so validation never fails on it
    expect(run.spec.history.routingTrace).toEqual([]);
  });

  it('a trigger parameter present but invalid is asked about before compiling; the answer makes the spec pass', async () => {
    const analyst = editingMatches((m) => ({
      ...m,
      trigger: { triggerId: 'zendesk.new_ticket', params: { priority: 'critical' }, confidence: 0.9, alternatives: [] },
    }));
    const run = await create(checkpointer, COMPLETE, answering({ answers: { q1: 'high' } }), { analyst });

    expect(run.prompts[0]?.kind).toBe('questions');
    expect(questionsOf(run.prompts[0])[0]?.text).toContain('priority');
    expect(run.spec.workflows[0]?.trigger).toEqual({ triggerId: 'zendesk.new_ticket', params: { priority: 'high' } });
    expect(run.spec.validation.passed).toBe(true);
  });

  it('an unknown trigger id from the analyst is treated as no trigger: the user is asked what starts the workflow', async () => {
    const analyst = editingMatches((m) => ({
      ...m,
      trigger: { triggerId: 'gmail.new_mail', params: {}, confidence: 0.9, alternatives: [] },
    }));
    const run = await create(
      checkpointer,
      COMPLETE,
      answering({ selected: ['webhook.incoming_webhook'] }, { answers: { q1: '/deals' } }),
      {
        analyst,
      },
    );
    expect(run.prompts[0]?.messages[0]).toContain('What should start');
    expect(run.spec.workflows[0]?.trigger.triggerId).toBe('webhook.incoming_webhook');
    expect(run.spec.validation.passed).toBe(true);
  });

  it('a defect no route can fix: at most maxRoutes routes, then review shows the failure and the spec does not pass', async () => {
    // the hub retires whichever capability matching has just picked (a flapping catalog): every
    // re-match picks another, and validation finds that one gone too
    const choices = [
      'gmail.send_email',
      'gmail.search_email',
      'gmail.label_email',
      'google-calendar.create_event',
      'google-calendar.find_free_slot',
    ];
    const flapping = () => {
      const retired = new Set<string>();
      const catalog: CatalogSource = {
        forOrg: async () => {
          const base = catalogOf();
          return { ...base, capabilities: base.capabilities.filter((c) => !retired.has(c.id)) };
        },
      };
      const offline = offlineAnalyst();
      const analyst: Analyst = {
        ...offline,
        matchCapabilities: async (wf, cat) => {
          const base = await offline.matchCapabilities(wf, cat);
          const match = {
            ...base,
            steps: base.steps.map((st, i) =>
              i === 0 ? { ...st, capabilityId: 'gmail.send_email', providerId: 'gmail', candidates: choices.slice(1) } : st,
            ),
          };
          const picked = choices.find((c) => !retired.has(c));
          if (picked) retired.add(picked);
          return match;
        },
      };
      return { analyst, catalog };
    };
    const run = await create(checkpointer, COMPLETE, answering(), flapping());

    const trace = run.spec.history.routingTrace;
    expect(trace).toHaveLength(3);
    expect(trace.map((t) => t.attempt)).toEqual([1, 2, 3]);
    expect(new Set(trace.map((t) => `${t.failedCheck}→${t.routedTo}`))).toEqual(new Set(['capabilities_known→match_workflows']));
    const review = run.prompts.at(-1);
    expect(review && isReview(review)).toBe(true);
    expect(review?.messages[0], JSON.stringify(run.spec.workflows) + JSON.stringify(run.spec.validation)).toContain(
      'capabilities_known',
    );
    expect(run.spec.validation.passed).toBe(false);

    // the loop's budget spent is said, not crashed on: budget_exceeded, naming the check still failing
    expect(run.state.budgetsSpent).toEqual(['routes after failed checks: 3 spent; capabilities_known still fails']);

    const once = await create(checkpointer, COMPLETE, answering(), { ...flapping(), maxRoutes: 1 });
    expect(once.spec.history.routingTrace).toHaveLength(1);
    expect(once.spec.validation.passed).toBe(false);
    expect(once.state.budgetsSpent).toEqual(['routes after failed checks: 1 spent; capabilities_known still fails']);
  });
});

describe('creation graph: bounded rounds', () => {
  it('with maxRounds 1, what is still open after one question prompt takes its default or stays unsatisfied', async () => {
    const defaulted = await create(checkpointer, STAGE_AND_DOCUSIGN, answering({ answers: { q1: 'Contract Sent' } }), {
      maxRounds: 1,
    });
    expect(defaulted.prompts).toHaveLength(2);
    expect(defaulted.prompts[1] && isReview(defaulted.prompts[1])).toBe(true);
    expect(gapOf(defaulted.spec, 'missing_integration')).toMatchObject({ resolution: 'defaulted', default: 'gmail.send_email' });
    expect(defaulted.spec.workflows[0]?.steps.map((s) => s.capabilityId)).toEqual(['gmail.send_email']);
    expect(defaulted.state.budgetsSpent).toEqual([
      expect.stringMatching(/^rounds of questions: 1 spent with \d+ blocking gap\(s\) open/),
    ]);

    const unsatisfied = await create(checkpointer, NO_TRIGGER, answering({ selected: ['schedule.cron'] }), { maxRounds: 1 });
    expect(unsatisfied.prompts).toHaveLength(2);
    expect(unsatisfied.prompts[1] && isReview(unsatisfied.prompts[1])).toBe(true);
    expect(unsatisfied.spec.gaps.find((g) => g.id === 'gap:wf-1:param:expression')).toMatchObject({
      blocking: true,
      resolution: 'unsatisfied',
    });
    expect(unsatisfied.spec.workflows[0]?.status).toBe('unsatisfied');
    expect(unsatisfied.spec.workflows[0]?.unsatisfiedReason).toContain('cron expression');
    // the user's skip is not a defect a route could fix: no route is taken for it
    expect(unsatisfied.spec.history.routingTrace).toEqual([]);
  });

  it('an org whose policy allows one round of questions gets budget_exceeded at that round; another org keeps the default', async () => {
    const strict = `org-${randomUUID()}`;
    await setPolicy(pool, strict, { budgets: { maxCreationRounds: 1 } });
    const options = { maxRounds: 5, budgets: policyBudgets(postgresPolicies(pool)) };
    const bounded = await create(
      checkpointer,
      STAGE_AND_DOCUSIGN,
      answering({ answers: { q1: 'Contract Sent' } }),
      options,
      randomUUID(),
      strict,
    );
    expect(bounded.state.loopBudgets).toEqual({ maxRounds: 1, maxRoutes: 3, maxTokens: null });
    expect(bounded.prompts).toHaveLength(2);
    expect(bounded.prompts[1] && isReview(bounded.prompts[1])).toBe(true);
    expect(bounded.state.budgetsSpent).toEqual([
      expect.stringMatching(/^rounds of questions: 1 spent with \d+ blocking gap\(s\) open/),
    ]);
    // what the runner publishes of it: a budget_exceeded event, not a crash
    const adapter = creationAdapter(checkpointer, { analyst: offlineAnalyst(), catalog: { forOrg: async () => catalogOf() } });
    expect(adapter.events?.({ budgetsSpent: bounded.state.budgetsSpent })).toEqual([
      expect.objectContaining({ event: 'budget_exceeded', reason: 'budget_exceeded', detail: bounded.state.budgetsSpent[0] }),
    ]);

    const free = await create(
      checkpointer,
      STAGE_AND_DOCUSIGN,
      answering({ answers: { q1: 'Contract Sent' } }, { selected: ['connect:docusign'] }),
      options,
      randomUUID(),
      `org-${randomUUID()}`,
    );
    expect(free.state.loopBudgets).toEqual({ maxRounds: 5, maxRoutes: 3, maxTokens: null });
    expect(free.state.budgetsSpent).toEqual([]);
  });

  it('going back and answering again still leaves the rounds for the questions not yet asked', async () => {
    const run = await create(
      checkpointer,
      STAGE_AND_DOCUSIGN,
      answering(
        { answers: { q1: 'Contract Sent' } },
        { action: 'back' },
        { answers: { q1: 'Contract Sent' } },
        { selected: ['connect:docusign'] },
      ),
      { maxRounds: 2 },
    );
    expect(optionIds(run.prompts[1])).toContain('connect:docusign');
    // back gives the round back: the DocuSign question is still asked after the re-answer
    expect(optionIds(run.prompts[3])).toContain('connect:docusign');
  });
});

describe('creation graph: determinism', () => {
  it('the same description and answers give the same spec, except the employee id', async () => {
    const description = [
      'Customer Onboarding Specialist.',
      'When a deal moves to Closed Won in HubSpot, create a folder in Google Drive, email the contract for e-signature via DocuSign and book a kickoff call.',
      'Every Friday at 4pm, post a summary of new customers in #sales on Slack.',
      'Handle follow-ups.',
    ].join('\n');
    const [a, b] = [await create(checkpointer, description), await create(checkpointer, description)];

    expect(a.executionId).not.toBe(b.executionId);
    expect(a.spec.employeeId).not.toBe(b.spec.employeeId);
    expect(b.prompts).toEqual(a.prompts);
    expect({ ...b.spec, employeeId: '' }).toEqual({ ...a.spec, employeeId: '' });
    expect(a.spec.workflows.length).toBeGreaterThan(1);
  });
});
