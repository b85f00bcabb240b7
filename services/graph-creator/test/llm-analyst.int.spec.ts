import { randomUUID } from 'node:crypto';
import type { Analyst, CapabilityMatch, DraftWorkflow, Finding, JobAnalysis } from '@hireloop/analyst';
import { configuredAnalyst, LlmAnalyst, type LlmConfig, OfflineAnalyst, tokenMeter } from '@hireloop/analyst';
import { FakeOpenAI, type Reply, type SeenRequest, serverError } from '@hireloop/analyst/testing';
import { createCheckpointer, createLogger, createPool } from '@hireloop/platform';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { policyBudgets } from '../src/creation/budgets';
import { tokensSpent } from '../src/creation/graph';
import { postgresPolicies } from '../src/tools/guards';
import { answering, catalogOf, create, offlineAnalyst } from './creation-harness';
import { setPolicy } from './policies';

// The analyst port on an OpenAI-compatible chat model, against a local fake of the chat-completions
// API: given these scripted replies, when the graph asks the analyst, then the model's answer is
// used when it validates, retried once when it does not, and replaced by the offline answer after that.

const log = createLogger('llm-analyst-test', 'silent');
const server = new FakeOpenAI();
let config: LlmConfig;

beforeAll(async () => {
  config = { baseUrl: await server.start(), model: 'fake', apiKey: 'k', timeoutMs: 5_000 };
});
afterAll(() => server.stop());

const DESCRIPTION = 'Mailer. When a ticket arrives in Zendesk, send an email to the customer with Gmail.';
const catalog = catalogOf();
const offline = new OfflineAnalyst();
const workflow = offline.analyseSync(DESCRIPTION).workflows[0] as DraftWorkflow;
const offlineMatch = offline.matchCapabilitiesSync(workflow, catalog);

/** The offline analyst behind the LLM one, counting when it is asked. */
let offlineCalls: string[] = [];
const spiedOffline = (): Analyst => {
  const base = offlineAnalyst();
  const counted =
    <A extends unknown[], R>(name: string, fn: (...args: A) => R) =>
    (...args: A): R => {
      offlineCalls.push(name);
      return fn(...args);
    };
  return {
    analyse: counted('analyse', base.analyse),
    matchCapabilities: counted('matchCapabilities', base.matchCapabilities),
    findings: counted('findings', base.findings),
    closestCapabilities: counted('closestCapabilities', base.closestCapabilities),
  };
};
const llm = () => new LlmAnalyst(config, spiedOffline(), log);

beforeEach(() => {
  offlineCalls = [];
  server.reset([]);
});

// distinctive answers no offline analysis would give
const analysis: JobAnalysis = {
  workflows: [
    {
      id: 'wf-1',
      name: 'Scripted Zebra Intake',
      description: 'Greets every zebra',
      responsibility: 'When a zebra arrives, greet it',
      triggerHint: { kind: 'event', text: 'a zebra arrives' },
      steps: [{ id: 'wf-1.s1', text: 'greet the zebra in #zoo', action: 'post message' }],
    },
  ],
  confidence: 0.42,
};
const match: CapabilityMatch = {
  workflowId: workflow.id,
  trigger: { triggerId: 'zendesk.new_ticket', params: { tag: 'zebra' }, confidence: 0.5, alternatives: [] },
  steps: workflow.steps.map((s) => ({
    stepId: s.id,
    capabilityId: 'slack.post_message',
    providerId: 'slack',
    confidence: 0.5,
    candidates: [],
  })),
};
const findings: Finding[] = [
  {
    category: 'organizational_context',
    workflowId: workflow.id,
    excerpt: 'zebra',
    reason: 'the zebra is not described',
    question: 'Which zebra?',
    blocking: false,
    default: 'The grey one.',
  },
];

const lastUserMessage = (i: number) => server.requests[i]?.body.messages?.at(-1)?.content ?? '';

describe('LLM analyst: valid replies', () => {
  it('uses a valid reply as is, and asks for JSON from the configured model', async () => {
    server.reset([{ content: analysis }, { content: match }, { content: { findings } }]);
    const notes: string[] = [];
    const analyst = llm();

    expect(await analyst.analyse(DESCRIPTION, notes)).toEqual(analysis);
    expect(await analyst.matchCapabilities(workflow, catalog, notes)).toEqual(match);
    expect(await analyst.findings(workflow, offlineMatch, notes)).toEqual(findings);

    expect(offlineCalls).toEqual([]);
    expect(notes).toEqual([]);
    expect(server.requests).toHaveLength(3);
    for (const request of server.requests) {
      expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions', authorization: 'Bearer k' });
      expect(request.body.model).toBe('fake');
      // structured output: the model is given the JSON Schema its reply must follow
      expect(request.body.response_format).toMatchObject({
        type: 'json_schema',
        json_schema: { schema: { type: 'object', additionalProperties: false } },
      });
      expect(request.body.messages?.[0]?.role).toBe('system');
    }
    expect(server.requests.map((r) => (r.body.response_format as { json_schema?: { name?: string } }).json_schema?.name)).toEqual(
      ['job_analysis', 'capability_match', 'findings'],
    );
    expect(server.requests[0]?.body.messages?.[1]).toEqual({ role: 'user', content: DESCRIPTION });
    // matching tells the model which ids exist
    expect(server.requests[1]?.body.messages?.[0]?.content).toContain('slack.post_message: ');
  });
});

describe('LLM analyst: invalid replies', () => {
  it.each<[string, Reply, string]>([
    ['schema-breaking JSON', { content: { ...analysis, confidence: 7 } }, '/confidence'],
    ['not JSON', { content: 'Sure! Here are the workflows you asked for.' }, 'JSON'],
  ])('retries once after %s, with the error, and uses the valid second reply', async (_, invalid, error) => {
    server.reset([invalid, { content: analysis }]);
    const notes: string[] = [];

    expect(await llm().analyse(DESCRIPTION, notes)).toEqual(analysis);
    expect(server.requests).toHaveLength(2);
    expect(lastUserMessage(0)).toBe(DESCRIPTION);
    expect(lastUserMessage(1)).toContain('Your previous reply was not usable');
    expect(lastUserMessage(1)).toContain(error);
    expect(offlineCalls).toEqual([]);
    expect(notes).toEqual([]);
  });

  it('after two invalid replies the offline analyst answers and the fallback is noted', async () => {
    server.reset([{ content: { workflows: 'none' } }, { content: '{"workflows": [' }]);
    const notes: string[] = [];

    expect(await llm().analyse(DESCRIPTION, notes)).toEqual(offline.analyseSync(DESCRIPTION));
    expect(server.requests).toHaveLength(2);
    expect(offlineCalls).toEqual(['analyse']);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^analyse: /);
  });

  it('two invalid findings replies fall back to the offline findings', async () => {
    server.reset([{ content: { findings: [{ category: 'gossip' }] } }, { content: { findings: 'none' } }]);
    const notes: string[] = [];

    expect(await llm().findings(workflow, offlineMatch, notes)).toEqual(offline.ambiguities(workflow, offlineMatch));
    expect(offlineCalls).toEqual(['findings']);
    expect(notes[0]).toMatch(/^findings: invalid reply/);
  });

  it('a reply naming a capability the catalog does not know falls back to the offline match', async () => {
    const unknown = { ...match, steps: match.steps.map((s) => ({ ...s, capabilityId: 'slack.summon_zebra' })) };
    server.reset([{ content: unknown }]);
    const notes: string[] = [];

    expect(await llm().matchCapabilities(workflow, catalog, notes)).toEqual(offlineMatch);
    expect(offlineCalls).toEqual(['matchCapabilities']);
    expect(notes).toEqual(['matchCapabilities: the reply named a workflow or capability that does not exist']);
  });

  it('a reply for another workflow falls back to the offline match', async () => {
    server.reset([{ content: { ...match, workflowId: 'wf-9' } }]);
    const notes: string[] = [];

    expect(await llm().matchCapabilities(workflow, catalog, notes)).toEqual(offlineMatch);
    expect(notes).toHaveLength(1);
  });

  it('a server error is retried once, then the offline analyst answers and the failure is noted', async () => {
    server.reset([], serverError);
    const notes: string[] = [];

    expect(await llm().analyse(DESCRIPTION, notes)).toEqual(offline.analyseSync(DESCRIPTION));
    expect(server.requests).toHaveLength(2);
    expect(offlineCalls).toEqual(['analyse']);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^analyse: model call failed: /);
    expect(notes[0]).toContain('500');
  });
});

describe('LLM analyst behind the creation graph', () => {
  const pool = createPool(inject('databaseUrl'));
  const checkpointer = createCheckpointer(pool);
  afterAll(() => pool.end());

  it('a model that never answers usably: the creation completes on offline answers, with the fallbacks noted', async () => {
    server.reset([], { content: 'I would rather not answer in JSON.' });
    const analyst = configuredAnalyst(new OfflineAnalyst(), config, log);

    const run = await create(checkpointer, DESCRIPTION, answering(), { analyst });
    const offlineRun = await create(checkpointer, DESCRIPTION, answering());

    expect(run.employee).not.toBeNull();
    expect({ ...run.spec, employeeId: '' }).toEqual({ ...offlineRun.spec, employeeId: '' });
    expect(run.state.fallbacks.length).toBeGreaterThan(0);
    expect(run.state.fallbacks.map((f) => f.split(':')[0])).toEqual(
      expect.arrayContaining(['analyse', 'matchCapabilities', 'findings']),
    );
    // every analyst call asked twice (the bounded retry), each time with its schema, of the configured model
    expect(server.requests.length).toBe(2 * 3);
    for (const request of server.requests) {
      expect(request.path).toBe('/v1/chat/completions');
      expect(request.body).toMatchObject({ model: 'fake', response_format: { type: 'json_schema' } });
    }
  });
});

/** A competent model (the offline analyst's reading of what it is asked), reporting `tokens` of usage per reply. */
const competent =
  (tokens: number) =>
  (request: SeenRequest): Reply => {
    const usage = { prompt_tokens: tokens - 100, completion_tokens: 100 };
    const format = request.body.response_format as { json_schema?: { name?: string } } | undefined;
    const input = request.body.messages?.at(-1)?.content ?? '';
    switch (format?.json_schema?.name) {
      case 'job_analysis':
        return { content: offline.analyseSync(input), usage };
      case 'capability_match':
        return { content: offline.matchCapabilitiesSync(JSON.parse(input) as DraftWorkflow, catalog), usage };
      case 'findings': {
        const asked = JSON.parse(input) as { workflow: DraftWorkflow; match: CapabilityMatch };
        return { content: { findings: offline.ambiguities(asked.workflow, asked.match) }, usage };
      }
      default:
        return serverError;
    }
  };

describe('LLM analyst: the tokens of the execution', () => {
  it('counts every reply’s usage; once the budget is spent the model is not asked and the offline analyst answers, noted', async () => {
    server.reset([], competent(1_000));
    const analyst = llm();
    const meter = tokenMeter(0, 1_500);
    const notes: string[] = [];
    const analysed = await analyst.analyse(DESCRIPTION, notes, catalog, meter);
    expect(meter.spent).toBe(1_000);
    const wf = analysed.workflows[0] as DraftWorkflow;
    const matched = await analyst.matchCapabilities(wf, catalog, notes, meter);
    expect(meter.spent).toBe(2_000);
    expect(notes).toEqual([]);
    // over the budget: no third request, the offline analyst answers and says why
    await analyst.findings(wf, matched, notes, meter);
    expect(server.requests).toHaveLength(2);
    expect(offlineCalls).toEqual(['findings']);
    expect(meter.refused).toBe(true);
    expect(notes).toEqual(['findings: the token budget of the execution is spent']);
  });

  it('a creation of an org whose policy allows 1500 tokens: budget_exceeded at the limit, the rest offline, and it completes', async () => {
    const pool = createPool(inject('databaseUrl'));
    try {
      const checkpointer = createCheckpointer(pool);
      const org = `org-${randomUUID()}`;
      await setPolicy(pool, org, { budgets: { maxTokens: 1_500 } });
      server.reset([], competent(1_000));
      const analyst = configuredAnalyst(new OfflineAnalyst(), config, log);
      const run = await create(
        checkpointer,
        DESCRIPTION,
        answering(),
        { analyst, budgets: policyBudgets(postgresPolicies(pool)) },
        randomUUID(),
        org,
      );
      expect(run.employee).not.toBeNull();
      expect(run.state.loopBudgets).toMatchObject({ maxTokens: 1_500 });
      // the analysis spent 1000; the matching (started under the limit) 1000 more; then nothing is asked
      expect(run.state.tokensUsed).toBe(server.requests.length * 1_000);
      expect(server.requests).toHaveLength(2);
      // the spec's history carries what was spent: the run log reads it
      expect((run.employee as { history: { tokensUsed?: number } }).history.tokensUsed).toBe(2_000);
      expect(run.state.budgetsSpent).toEqual([tokensSpent(1_500)]);
      expect(run.state.fallbacks).toEqual(expect.arrayContaining(['findings: the token budget of the execution is spent']));
    } finally {
      await pool.end();
    }
  });
});
