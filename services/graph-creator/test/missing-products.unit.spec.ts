import { unknownProductsIn } from '@hireloop/analyst';
import { MemorySaver } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import type { PromptSpec } from '../src/prompt';
import { answering, create, optionIds, recommendedOf } from './creation-harness';

// A product a step names that the org lacks — in the catalog or not, in a list or not — is a missing
// integration the creator asks about, never a look-alike tool taken in silence.

describe('products no list knows', () => {
  it.each([
    ['log each new hire in Personio', 'personio'],
    ['add the task on Monday.com', 'monday'],
    ['raise it in ServiceNow', 'servicenow'],
    ['message them via WhatsApp', 'whatsapp'],
  ])('"%s" names %s', (text, id) => {
    expect(unknownProductsIn(text).map((p) => p.providerId)).toEqual([id]);
  });

  it.each([
    'reply in English',
    'hold the meeting in Berlin',
    'customers in Germany',
    'send it to Anna on Friday',
    'put it in the Supplier invoices folder',
  ])('"%s" names none', (text) => {
    expect(unknownProductsIn(text)).toEqual([]);
  });
});

describe('missing integrations named on steps', () => {
  it('a step in a product outside the catalog recommends leaving it as a missing integration, offering its API and the org’s tools', async () => {
    const run = await create(
      new MemorySaver(),
      'Every morning, log each new hire from yesterday in Workday and email them a welcome note.',
    );
    const gap = run.spec.gaps.find((g) => g.category === 'missing_integration');
    expect(gap).toMatchObject({ providerId: 'workday' });
    const prompt = run.prompts.find((p) => p.messages[0]?.includes('workday'));
    expect(optionIds(prompt)).toContain('http.request');
    // no other product's tool is recommended in its place: the step is left out and the review says so
    expect(recommendedOf(prompt)).toBe('leave:workday');
    expect(run.spec.workflows[0]?.steps.map((s) => s.capabilityId)).toEqual(['gmail.send_email']);
    expect(run.prompts.at(-1)?.messages[0]).toContain('left out:');
  });

  it('picking its API over HTTP makes the step an HTTP request', async () => {
    const viaApi = (p: PromptSpec, i: number) =>
      p.messages[0]?.includes('workday') ? { selected: ['http.request'] } : answering()(p, i);
    const run = await create(
      new MemorySaver(),
      'Every morning, log each new hire from yesterday in Workday and email them a welcome note.',
      viaApi,
    );
    expect(run.spec.workflows[0]?.steps.map((s) => s.capabilityId)).toEqual(['http.request', 'gmail.send_email']);
  });

  it('"… in Microsoft Teams and post it there": both steps are that product, each asked with its own stand-in', async () => {
    // nothing of the workflow would be left without them: Teams' API over HTTP is recommended; the user
    // picks the org's own tool for each step instead (offered, not recommended)
    const standIn = (p: PromptSpec, i: number) => {
      const tool = optionIds(p).find((id) => id.startsWith('slack.'));
      if (p.messages[0]?.includes('microsoft-teams')) expect(recommendedOf(p)).toBe('http.request');
      return p.messages[0]?.includes('microsoft-teams') && tool ? { selected: [tool] } : answering()(p, i);
    };
    const run = await create(
      new MemorySaver(),
      'When a ticket arrives in Zendesk, set up a channel for it in Microsoft Teams and post the ticket summary there.',
      standIn,
    );
    const teams = run.spec.gaps.filter((g) => g.category === 'missing_integration' && g.providerId === 'microsoft-teams');
    expect(teams).toHaveLength(2);
    expect(run.spec.workflows[0]?.steps.map((s) => s.capabilityId)).toEqual(['slack.create_channel', 'slack.post_message']);
  });
});

describe('products the description says are not connected', () => {
  const tattoo = [
    'IF a booking request comes through the website form THEN email the client two free slots from the calendar.',
    'IF no deposit has come in 48 hours after the hold was made THEN cancel the hold in the calendar and tell the artist on Slack.',
    "Deposits are paid through Square, which isn't connected to anything yet.",
  ].join('\n');

  it('given a product said not connected that no step names, when created, then it is a missing integration of the work that speaks of it, assumed and not asked', async () => {
    const run = await create(new MemorySaver(), tattoo);
    const gap = run.spec.gaps.find((g) => g.providerId === 'square');
    expect(gap).toMatchObject({ category: 'missing_integration', resolution: 'defaulted', blocking: false });
    expect(run.prompts.some((p) => p.messages.join(' ').includes('square') && p !== run.prompts.at(-1))).toBe(false);
    // what the employee does meanwhile is in the behaviour prompt of that workflow, and the review says it
    const carrying = run.spec.workflows.find((w) => w.id === gap?.workflowId);
    expect(carrying?.behaviourPrompt).toContain('square');
    expect(carrying?.behaviourPrompt).toContain('deposit');
    expect(run.prompts.at(-1)?.messages[0]).toContain('assumed: "');
  });

  it('given a product said not connected that a step names, when created, then the step’s own gap is the only one, asked as before', async () => {
    const run = await create(
      new MemorySaver(),
      "When a deal is won in HubSpot, send the contract through DocuSign (we haven't connected DocuSign yet) and post it in #sales.",
    );
    const gaps = run.spec.gaps.filter((g) => g.providerId === 'docusign');
    expect(gaps).toHaveLength(1);
    expect(gaps[0]?.id).not.toContain(':said');
  });

  it('given a product said not connected that the org has connected after all, when created, then no gap is made of it', async () => {
    const run = await create(
      new MemorySaver(),
      "Every Friday at 4pm, post the week's sales in #sales. Our HubSpot isn't hooked up yet, I think.",
    );
    expect(run.spec.gaps.some((g) => g.providerId === 'hubspot')).toBe(false);
  });
});
