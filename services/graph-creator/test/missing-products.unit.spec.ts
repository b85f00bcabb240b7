import { unknownProductsIn } from '@hireloop/analyst';
import { MemorySaver } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { create, optionIds } from './creation-harness';

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
  it('a step in a product outside the catalog asks what to use instead, offering the org’s nearest tools and its API', async () => {
    const run = await create(
      new MemorySaver(),
      'Every morning, log each new hire from yesterday in Workday and email them a welcome note.',
    );
    const gap = run.spec.gaps.find((g) => g.category === 'missing_integration');
    expect(gap).toMatchObject({ providerId: 'workday' });
    const prompt = run.prompts.find((p) => p.messages[0]?.includes('workday'));
    expect(optionIds(prompt)).toContain('http.request');
    // the pick stands in for the step; the rest of the workflow is kept
    expect(run.spec.workflows[0]?.steps.length).toBe(2);
  });

  it('"… in Microsoft Teams and post it there": both steps are that product, each asked with its own stand-in', async () => {
    const run = await create(
      new MemorySaver(),
      'When a ticket arrives in Zendesk, set up a channel for it in Microsoft Teams and post the ticket summary there.',
    );
    const teams = run.spec.gaps.filter((g) => g.category === 'missing_integration' && g.providerId === 'microsoft-teams');
    expect(teams).toHaveLength(2);
    expect(run.spec.workflows[0]?.steps.map((s) => s.capabilityId)).toEqual(['slack.create_channel', 'slack.post_message']);
  });
});
