import { builtInCatalog } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import { analyseJob, type Catalog, matchWorkflow } from '../src';

// A start no trigger fits is asked about, its options best first: the product the start names, what its words say
// happens, then the item its work acts on as something already there.

const desk = [
  'gmail',
  'slack',
  'zendesk',
  'jira',
  'github',
  'twilio',
  'notion',
  'hubspot',
  'docusign',
  'stripe',
  'google-drive',
  'schedule',
  'webhook',
];

/** Each workflow's trigger and the triggers offered in its place, best first. */
const offered = (text: string, connected = desk) => {
  const catalog: Catalog = { capabilities: builtInCatalog.capabilities, triggers: builtInCatalog.triggers, connected };
  return analyseJob(text).workflows.map((w) => {
    const m = matchWorkflow(w, catalog);
    return { triggerId: m.trigger.triggerId, offered: m.trigger.alternatives };
  });
};

describe('offline analyst: the start the work points to', () => {
  it('given a thing alone as the start and work on a ticket, when matched, then a new ticket is offered first', () => {
    const [wf] = offered("For each request, reply with the price list and tag the ticket 'pricing'.");
    expect(wf?.triggerId).toBeNull();
    expect(wf?.offered[0]).toBe('zendesk.new_ticket');
  });

  it('given a start no product names and a step that tags and prioritises, when matched, then the ticket arriving leads', () => {
    const [wf] = offered("If crash reports come, tag them 'crash' and set high priority on the ticket.");
    expect(wf?.offered[0]).toBe('zendesk.new_ticket');
  });

  it('given a request answered by email, when matched, then an email arriving leads over a chat message', () => {
    const [wf] = offered('For each request, check the calendar and reply by email with a free slot.', [
      'gmail',
      'slack',
      'google-calendar',
      'schedule',
      'webhook',
    ]);
    expect(wf?.triggerId).toBeNull();
    expect(wf?.offered[0]).toBe('gmail.new_email');
  });

  it('given a text answered back, when matched, then a text received leads over what "reports" might mean', () => {
    const [wf] = offered('When a tenant reports a leak, text them back that a plumber is on the way.');
    expect(wf?.offered[0]).toBe('twilio.sms_received');
  });

  it('given a folder shared after files land in it, when matched, then a file added is offered', () => {
    const [wf] = offered('When stems land in Drive Sessions/<artist>, share that folder with the artist.');
    expect(wf?.offered[0]).toBe('google-drive.file_added');
  });

  it('given a product whose item is said to go to a state, when matched, then its change comes before its arrival', () => {
    const [wf] = offered("When the Jira issue go to 'Done', email the player.");
    expect(wf?.offered.slice(0, 2)).toEqual(['jira.issue_transitioned', 'jira.issue_created']);
  });

  it("given a product named with its thing but no event, when matched, then that product's triggers keep the order its words scored", () => {
    const [wf] = offered('Regularly update deals in HubSpot and email the owner a digest.');
    expect(wf?.offered.slice(0, 2)).toEqual(['hubspot.deal_stage_changed', 'hubspot.new_contact']);
  });

  it('given a verb only one product has, when matched, then what it says comes before the item the work changes', () => {
    expect(offered("When the IO comes back fully signed, move the deal to 'IO Signed' in HubSpot.")[0]?.offered[0]).toBe(
      'docusign.envelope_completed',
    );
    expect(offered("When subs are paid, tick 'Paid' on the player's row in Notion.")[0]?.offered[0]).toBe('stripe.invoice_paid');
  });

  it('given a thing made by an earlier step, when matched, then sharing it points to no arrival', () => {
    const [wf] = offered('When the client approves the design, create a Drive folder and share it with them.');
    expect(wf?.offered).not.toContain('google-drive.file_added');
  });

  it('given a start the words already place, when matched, then the work does not move it', () => {
    const [wf] = offered(
      'When a parent replies and an exchange ticket gets reopened, set it to high priority and assign it to Jo.',
    );
    expect(wf?.offered[0]).toBe('zendesk.ticket_updated');
  });

  it('given a start a trigger fits, when matched, then nothing is offered in its place from the work', () => {
    const [wf] = offered('When a new Zendesk ticket comes in, reply with our opening hours.');
    expect(wf).toEqual({ triggerId: 'zendesk.new_ticket', offered: expect.not.arrayContaining(['gmail.new_email']) });
  });
});

describe('offline analyst: a start that opens with a time of its own', () => {
  it('given a time first and no event that fits, when matched, then it runs on that schedule', () => {
    const lunch = offered(
      'At lunchtime, have a look through the inbox for anything from passengers asking to rebook, and post a list in #office.',
    );
    expect(lunch[0]?.triggerId).toBe('schedule.cron');
    const late = offered('At 5pm, if there are unanswered tickets, post them in #support.');
    expect(late[0]?.triggerId).toBe('schedule.cron');
  });

  it('given a time said of an event, when matched, then it is no schedule', () => {
    expect(offered('If a delivery arrives before 9am, text the manager.')[0]?.triggerId).not.toBe('schedule.cron');
    expect(offered('When someone books a table for Friday at 7pm, add it to the calendar.')[0]?.triggerId).not.toBe(
      'schedule.cron',
    );
  });

  it("given each thing's own time or how often things happen, when matched, then it is no schedule", () => {
    expect(offered('The morning of each trip, email the trip leader the register.')[0]?.triggerId).not.toBe('schedule.cron');
    expect(
      offered('Most mornings the gym inbox has people asking about a free trial. Reply with the booking link.')[0]?.triggerId,
    ).not.toBe('schedule.cron');
  });

  it('given a product outside the catalog named with how often, when matched, then that product stays the start', () => {
    const catalog: Catalog = { capabilities: builtInCatalog.capabilities, triggers: builtInCatalog.triggers, connected: desk };
    const [wf] = analyseJob(
      'Also, our monthly newsletter goes out through Mailchimp. Add every new subscriber to HubSpot.',
    ).workflows;
    const m = wf && matchWorkflow(wf, catalog);
    expect(m?.trigger).toMatchObject({ triggerId: null, providerId: 'mailchimp' });
  });

  it('given hours in brackets after an event no trigger fits, when matched, then the brackets are no schedule', () => {
    const [wf] = offered('At that point a visit is booked in the Visits calendar at the first free slot (10:00 or 14:00 only).');
    expect(wf?.triggerId).not.toBe('schedule.cron');
  });
});
