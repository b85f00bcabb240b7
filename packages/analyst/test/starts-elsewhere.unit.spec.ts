import { builtInCatalog } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import { analyseJob, type Catalog, matchWorkflow } from '../src';

// Where a start happens: in a product outside the catalog (then no catalog trigger of a product it does not name is
// taken for it), as a change said with a state in quotes, or — no start said — on the thing the work acts on.

const shop = ['gmail', 'slack', 'hubspot', 'stripe', 'zendesk', 'schedule', 'webhook'];

const matched = (text: string, connected = shop) => {
  const catalog: Catalog = { capabilities: builtInCatalog.capabilities, triggers: builtInCatalog.triggers, connected };
  return analyseJob(text).workflows.map((w) => {
    const m = matchWorkflow(w, catalog);
    return {
      kind: w.triggerHint.kind,
      triggerId: m.trigger.triggerId,
      providerId: m.trigger.providerId ?? null,
      offered: m.trigger.alternatives,
      steps: m.steps.map((s) => s.capabilityId ?? `(${s.providerId})`),
    };
  });
};

describe('offline analyst: a start in a product outside the catalog', () => {
  it('given things that come in through a product hireloop has no integration for, when matched, then that product is the start, not a chat message', () => {
    const [wf] = matched('When a maintenance request comes in through AppFolio, post it in #maintenance.');
    expect(wf?.triggerId).toBeNull();
    expect(wf?.providerId).toBe('appfolio');
    // how an outside system reaches an employee is offered first
    expect(wf?.offered[0]).toBe('webhook.incoming_webhook');
  });

  it("given an invoice paid in another product's books, when matched, then it is not taken for a Stripe invoice paid", () => {
    const [wf] = matched('Once an invoice is paid in Xero, thank the client by email.');
    expect(wf?.triggerId).toBeNull();
    expect(wf?.providerId).toBe('xero');
    expect(wf?.offered).toContain('stripe.invoice_paid');
  });

  it('given a review posted on a review site, when matched, then the site is the start', () => {
    const [wf] = matched('When a review is posted on Trustpilot, share it in #reviews.');
    expect(wf?.triggerId).toBeNull();
    expect(wf?.providerId).toBe('trustpilot');
  });

  it('given a booking of a named booking product, when matched, then that product is the start over a calendar guessed from the thing', () => {
    const [wf] = matched('After each Calendly booking, create a HubSpot contact and send the intake form.', [
      ...shop,
      'google-calendar',
    ]);
    expect(wf?.providerId).toBe('calendly');
  });

  it('given the catalog product named beside the outside one, when matched, then the catalog trigger stays', () => {
    const [wf] = matched('When a new HubSpot contact is created from our Webflow form, email them the brochure.');
    expect(wf?.triggerId).toBe('hubspot.new_contact');
  });

  it('given a folder path after "in", when matched, then its parts are no product', () => {
    const [wf] = matched('When a new PDF lands on the shared drive in Inspections/Incoming, post it in #safety.', [
      ...shop,
      'google-drive',
    ]);
    expect(wf?.providerId).not.toBe('inspections');
    expect(wf?.triggerId).toBe('google-drive.file_added');
  });

  it('given a wish said with "also" for the people of a start, when analysed, then adding them is a step of that product', () => {
    const [wf] = matched("When a deal closes in HubSpot, email the client. I'd also like them added to our Mailchimp list.");
    expect(wf?.steps).toEqual(['gmail.send_email', '(mailchimp)']);
  });
});

describe('offline analyst: a change said with the state it goes to', () => {
  it('given someone flipping a ticket to a quoted state, when matched, then the ticket changing is offered first', () => {
    const [wf] = matched("Once someone on our team flips a return ticket to 'approved', reply on the ticket.");
    expect(wf?.offered[0]).toBe('zendesk.ticket_updated');
  });

  it('given a deal switched to a stage, when matched, then the stage change leads over a new contact', () => {
    const [wf] = matched('Once we flip a deal to Won, email the client a welcome pack.');
    expect(wf?.offered[0]).toBe('hubspot.deal_stage_changed');
  });
});

describe('offline analyst: no start said', () => {
  it('given work that labels the email things came in as, when matched, then an email arriving is offered before a webhook', () => {
    const [wf] = matched(
      'Return requests that come in via our returns@ inbox need to become Zendesk tickets — create the ticket with the order number and label the email as handled.',
    );
    expect(wf?.kind).toBe('unknown');
    expect(wf?.offered[0]).toBe('gmail.new_email');
    expect(wf?.offered).toContain('webhook.incoming_webhook');
  });

  it('given only an answer as the work, when matched, then the webhook stays first (an answer says little of what came)', () => {
    const [wf] = matched("Our website's contact form sends us enquiries. Reply to each within the hour with our price list.");
    expect(wf?.kind).toBe('unknown');
    expect(wf?.offered[0]).toBe('webhook.incoming_webhook');
  });
});
