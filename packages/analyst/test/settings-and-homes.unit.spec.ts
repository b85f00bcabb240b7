import { builtInCatalog } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import { analyseJob, type Catalog, matchWorkflow, unknownProductsIn } from '../src';

// How a business runs, said before its duties ("All our reservations are in Cloudbeds", "Applications come into
// Greenhouse"): the setting of the workflows, not one of them — and a product outside the catalog said there is where a
// later start that names none may happen.

const connectedHere = ['gmail', 'slack', 'twilio', 'hubspot', 'salesforce', 'docusign', 'greenhouse', 'schedule', 'webhook'];

const matched = (text: string, connected = connectedHere) => {
  const catalog: Catalog = { capabilities: builtInCatalog.capabilities, triggers: builtInCatalog.triggers, connected };
  return analyseJob(text).workflows.map((w) => {
    const m = matchWorkflow(w, catalog);
    return {
      name: w.name,
      hint: w.triggerHint.text,
      steps: w.steps.length,
      triggerId: m.trigger.triggerId,
      providerId: m.trigger.providerId ?? null,
      offered: m.trigger.alternatives,
    };
  });
};

describe('offline analyst: a sentence of setting is no workflow', () => {
  it('given how the business runs said first, when analysed, then only the duties are workflows', () => {
    const wfs = matched(
      'All our reservations are in Cloudbeds, staff coordinate on Slack, and we have a Twilio number guests can text.\n\n' +
        'Whenever a guest texts our number, pass the message on to #front-desk in Slack.\n' +
        'Every morning at 7:00, post the day’s arrivals to #housekeeping.',
    );
    expect(wfs.map((w) => w.triggerId)).toEqual(['twilio.sms_received', 'schedule.cron']);
    expect(wfs.every((w) => w.steps > 0)).toBe(true);
    // (of the setting's parts, the one that speaks of the start's work is said with it)
    expect(wfs[0]?.hint).toBe('Whenever a guest texts our number (we have a Twilio number guests can text)');
  });

  it('given things people send to an address of ours, when a duty follows, then their arrival by email starts it', () => {
    const wfs = matched('Homeowners send architectural requests to board@hoa.example. Reply to each within a week.');
    expect(wfs.map((w) => [w.triggerId, w.steps])).toEqual([['gmail.new_email', 1]]);
  });

  it('given where things come in said before the start of the same things, when analysed, then one workflow runs them', () => {
    const wfs = matched(
      'Applications come into Greenhouse. Good cooks get snapped up fast.\n\n' +
        'When someone applies for a line cook job, move them to the Phone Screen stage and email them.',
    );
    expect(wfs).toHaveLength(1);
    expect(wfs[0]?.triggerId).toBe('greenhouse.candidate_applied');
  });

  it('given an arrival said with a start word but no duty, when analysed, then it is kept to be asked about', () => {
    const wfs = matched('New Zendesk ticket tagged refund. Every Friday at 4, email me the week’s refunds.', [
      ...connectedHere,
      'zendesk',
    ]);
    expect(wfs.map((w) => [w.hint, w.triggerId])).toEqual([
      ['New Zendesk ticket tagged refund', 'zendesk.new_ticket'],
      ['Every Friday at 4', 'schedule.cron'],
    ]);
  });

  it('given items said to be on a calendar, when a later duty says a time before theirs, then the calendar’s event starts it', () => {
    const wfs = matched(
      'Parent-teacher conferences are booked on the "Conferences" Google calendar. Text the parent an hour before theirs with the room number.',
      [...connectedHere, 'google-calendar'],
    );
    expect(wfs.map((w) => w.triggerId)).toEqual(['google-calendar.event_starting']);
  });

  it('given a form said to call a webhook and no duty, when analysed, then that hook stays a start of its own', () => {
    const wfs = matched(
      'The returns form on our site calls a webhook you give us. Every Monday at 9, post the open returns in #returns.',
    );
    expect(wfs.map((w) => w.triggerId)).toEqual(['webhook.incoming_webhook', 'schedule.cron']);
  });
});

describe('offline analyst: the home of a start that names no product', () => {
  it('given a shop said to run on a product outside the catalog, when a later start names none, then that product is its start', () => {
    const [wf] = matched('Our shop runs on Shopify. When an order is refunded, post it in #finance on Slack.');
    expect(wf?.triggerId).toBeNull();
    expect(wf?.providerId).toBe('shopify');
    // the workflow's name keeps the start's own words
    expect(wf?.name).not.toMatch(/shopify/i);
  });

  it('given reservations kept in a product no list knows, when a later start is a guest arriving, then the start is in that product, not an unconnected calendar', () => {
    const wfs = matched(
      'All our reservations are in Cloudbeds (that’s our PMS).\n\nThe day before each guest arrives, text them the check-in instructions.',
    );
    expect(wfs[0]?.triggerId).toBeNull();
    expect(wfs[0]?.providerId).toBe('cloudbeds');
    expect(wfs[0]?.offered[0]).toBe('webhook.incoming_webhook');
  });

  it('given a connected product whose like event fits the start, when the setting names an outside product, then the connected trigger stays', () => {
    const [wf] = matched('Our shop runs on Shopify. When a new lead comes in, add them to HubSpot.');
    expect(wf?.triggerId).toBe('hubspot.new_contact');
  });

  it('given a start that says its own way in, when the setting names an outside product, then the setting is not its home', () => {
    const [wf] = matched('Our shop runs on Shopify. When a customer emails us about an order, reply within the hour.');
    expect(wf?.hint).toBe('When a customer emails us about an order');
    expect(wf?.triggerId).toBe('gmail.new_email');
  });

  it('given the team said to talk in an outside product, when a later start names none, then that product is no home of it', () => {
    const wfs = matched(
      'Shippers are managed in Salesforce and the whole team communicates in Microsoft Teams.\n\n' +
        'When an opportunity moves to Closed Won, send the shipper agreement via DocuSign.',
    );
    expect(wfs[0]?.triggerId).toBe('salesforce.opportunity_stage_changed');
  });

  it('given the town the business is in, when a later start names none, then the town is no home of it', () => {
    const wfs = matched(
      'We’re a freight brokerage in Joliet.\n\nWhen a deal reaches the Won stage, email the shipper our credit application.',
      ['gmail', 'slack'],
    );
    expect(wfs[0]?.hint).toBe('When a deal reaches the Won stage');
    expect(wfs[0]?.triggerId).toBe('hubspot.deal_stage_changed');
  });

  it('given a product no list knows named before the thing that comes, when it is called a product elsewhere, then it is the start', () => {
    const [wf] = matched(
      'New patients fill in an intake questionnaire on Typeform before their first visit.\n\n' +
        'When a new Typeform response comes in, send the patient our consent form through DocuSign.',
    );
    expect(wf?.triggerId).toBeNull();
    expect(wf?.providerId).toBe('typeform');
  });
});

describe('offline analyst: which starts a home reaches', () => {
  it('given the start’s duty said as a wish, when the setting before it names an outside product, then that product is still its home', () => {
    const [wf] = matched("Our shop runs on Shopify. When an order is refunded, I'd like it posted in #finance on Slack.");
    expect(wf?.hint).toBe('When an order is refunded (in Shopify)');
    expect(wf?.providerId).toBe('shopify');
  });

  it('given several starts after one setting, when the later ones speak of other things, then only the first is at home there', () => {
    const wfs = matched(
      'Our shop runs on Shopify. When an order is refunded, post it in #finance on Slack. ' +
        'When a new lead signs up, add them to HubSpot. When a contract is signed, email the client a welcome note.',
    );
    expect(wfs.map((w) => w.hint)).toEqual([
      'When an order is refunded (in Shopify)',
      'When a new lead signs up',
      'When a contract is signed',
    ]);
    expect(wfs.map((w) => w.triggerId)).toEqual([null, 'hubspot.new_contact', 'docusign.envelope_completed']);
  });

  it('given a later start of the same things as the setting, when another start came between, then it is at home there too', () => {
    const wfs = matched(
      'All our orders are in Shopify. When an order is refunded, post it in #finance on Slack. ' +
        'When a new lead signs up, add them to HubSpot. When an order is cancelled, email the customer.',
    );
    expect(wfs.map((w) => w.hint)).toEqual([
      'When an order is refunded (in Shopify)',
      'When a new lead signs up',
      'When an order is cancelled (in Shopify)',
    ]);
  });

  it('given a setting that is a whole sentence of how things come, when a start no trigger fits follows, then its outside product is the start', () => {
    const [wf] = matched('Client messages come in through Intercom. When a customer writes in, reply within the hour.');
    expect(wf?.triggerId).toBeNull();
    expect(wf?.providerId).toBe('intercom');
    expect(wf?.offered[0]).toBe('webhook.incoming_webhook');
  });

  it('given who the business is, said with the product it sells on, when a later start names none, then that product is its home', () => {
    const [wf] = matched('We are a small shop on Shopify. When an order is refunded, post it in #finance on Slack.');
    expect(wf?.providerId).toBe('shopify');
  });
});

describe('offline analyst: an arrival said as done by others or by the writer', () => {
  it('given things booked by people through a link of a product outside the catalog, when a later start points back at them, then that product is the start', () => {
    const [wf] = matched(
      'Private sessions get booked through my Calendly link. When someone books one, send them an invoice in Stripe.',
      [...connectedHere, 'stripe'],
    );
    expect(wf?.triggerId).toBeNull();
    expect(wf?.providerId).toBe('calendly');
  });

  it('given a record the writer adds, with the duties after it on arrows, when analysed, then its arrival starts them', () => {
    const wfs = matched(
      '* New hire gets added in BambooHR (by me, usually two weeks before their start date)\n' +
        '* → make them a personal folder in Google Drive\n* → invite them to #welcome in Slack',
      ['bamboohr', 'slack', 'google-drive'],
    );
    expect(wfs).toHaveLength(1);
    expect(wfs[0]?.triggerId).toBe('bamboohr.new_hire');
    expect(wfs[0]?.steps).toBe(2);
  });

  it('given work sent out through a page of ours, when analysed, then it is a duty, not something that comes in', () => {
    const wfs = matched('Invoices get sent via our portal every Friday.', ['stripe', 'schedule']);
    expect(wfs.map((w) => [w.triggerId, w.steps])).toEqual([['schedule.cron', 1]]);
  });

  it('given work said done through a product with no one else doing it, when analysed, then it is still a duty', () => {
    const wfs = matched('Invoices get sent through QuickBooks every Friday.', ['quickbooks', 'schedule']);
    expect(wfs[0]?.triggerId).toBe('schedule.cron');
    expect(wfs[0]?.steps).toBe(1);
  });
});

describe('offline analyst: how often others send us things, and names listed in brackets', () => {
  it('given how often suppliers send us their invoices, when a start after it acts on them, then that time is no schedule of ours', () => {
    const wfs = matched(
      'Every week the suppliers send me the invoice on email. When this email arrives, save the PDF in my Google Drive.',
      ['gmail', 'google-drive', 'schedule'],
    );
    expect(wfs.map((w) => [w.triggerId, w.steps])).toEqual([['gmail.new_email', 1]]);
  });

  it('given a time said before a duty of ours, when analysed, then it is still the schedule', () => {
    const wfs = matched('On Mondays send me the list of unpaid invoices.', ['gmail', 'schedule']);
    expect(wfs.map((w) => w.triggerId)).toEqual(['schedule.cron']);
  });

  it('given the clients a passive duty is for named in brackets, when analysed, then the duty runs on its time', () => {
    const wfs = matched(
      'Our three corporate clients (Hartwell Dental, Ocean Credit Union, Pike Architects) get invoiced on the last business day of the month — please create & send those through Stripe.',
      ['stripe', 'schedule'],
    );
    expect(wfs.map((w) => w.triggerId)).toEqual(['schedule.cron']);
    expect(wfs[0]?.steps).toBeGreaterThan(0);
  });
});

describe('offline analyst: a thing wished to go into a tool, and a reply said with no article', () => {
  it('given people who text us, when the writer wants them to go into a CRM, then the contact is made from each text', () => {
    const wfs = matched(
      'Buyers text my business line asking to see a listing. I want those to go into HubSpot as a contact, then text them back.',
      ['twilio', 'hubspot'],
    );
    expect(wfs.map((w) => w.triggerId)).toEqual(['twilio.sms_received']);
    expect(wfs[0]?.steps).toBe(2);
  });

  it('given a file wished to go in a folder, said as a non-native writer would, when analysed, then it is put there', () => {
    const wfs = matched('When an email arrive, I want that the PDF go in my Google Drive.', ['gmail', 'google-drive']);
    expect(wfs.map((w) => [w.triggerId, w.steps])).toEqual([['gmail.new_email', 1]]);
  });

  it('given a thing said to go somewhere that is no tool, when analysed, then no duty is made of it', () => {
    const wfs = matched('Those go in the bin.', ['gmail']);
    expect(wfs.every((w) => w.steps === 0)).toBe(true);
  });

  it('given a terse bullet of a patient replying to a text, when analysed, then the reply comes back by text', () => {
    const wfs = matched(
      "- 2h before each appt on the 'Chairs' calendar -> SMS the patient a reminder\n- patient replies C -> cancel the appt",
      ['google-calendar', 'twilio'],
    );
    expect(wfs.map((w) => w.triggerId)).toEqual(['google-calendar.event_starting', 'twilio.sms_received']);
  });
});

describe('products outside the catalog, by a short name', () => {
  it('given "in Teams", when read, then it is Microsoft Teams', () => {
    expect(unknownProductsIn('post a heads-up in the Sales channel in Teams').map((m) => m.providerId)).toEqual([
      'microsoft-teams',
    ]);
  });
});
