import { MemorySaver } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { create, optionIds, recommendedOf } from './creation-harness';

// A start no trigger fits is asked about; the option recommended is the one the work points to, and the person can
// still pick a webhook or a schedule.

describe('what should start a workflow, when its words name no trigger', () => {
  it('recommends the arrival of the thing its steps act on, and the employee starts from it when taken', async () => {
    const run = await create(new MemorySaver(), "For each request, reply with the price list and tag the ticket 'pricing'.");
    const asked = run.prompts.find((p) => p.messages[0]?.includes('What should start'));
    expect(recommendedOf(asked)).toBe('zendesk.new_ticket');
    expect(optionIds(asked)).toEqual(expect.arrayContaining(['webhook.incoming_webhook', 'schedule.cron']));
    expect(run.spec.workflows[0]?.trigger.triggerId).toBe('zendesk.new_ticket');
    // and the reply goes on the ticket that came in, not by email
    expect(run.spec.workflows[0]?.steps.map((s) => s.capabilityId)).toEqual(['zendesk.reply_ticket', 'zendesk.update_ticket']);
  });
});
