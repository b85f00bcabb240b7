import { describe, expect, it } from 'vitest';
import { parseSchedule } from '../src';
import { workflowsFor, workflowsOf } from './workflows-of';

const capabilities = (text: string) => workflowsOf(text).flatMap((w) => w.capabilities);
const triggers = (text: string) => workflowsOf(text).map((w) => w.triggerId);

describe('offline analyst: how many times a period', () => {
  it.each([
    ['two times per day', '0 9,17 * * *'],
    ['3x daily', '0 9,13,17 * * *'],
    ['four times a day', '0 9,12,14,17 * * *'],
    ['twice a week', '0 9 * * 1,4'],
    ['three times a week', '0 9 * * 1,3,5'],
    ['twice a month', '0 9 1,15 * *'],
  ])('given "%s", when parsed, then it runs %s', (said, expression) => {
    expect(parseSchedule(said)?.expression).toBe(expression);
  });

  it('given a count with its own times or days, when parsed, then those are kept', () => {
    expect(parseSchedule('twice a day at 7am and 3pm')?.expression).toBe('0 7,15 * * *');
    expect(parseSchedule('twice a week on Tuesday and Friday')?.expression).toBe('0 9 * * 2,5');
    expect(parseSchedule('once a week')?.expression).toBe('0 9 * * 1');
  });

  it('given "Two times per day, post …" as a duty, when analysed, then it is a schedule at two hours', () => {
    expect(workflowsOf('Two times per day, post the open tickets count in #support.')[0]).toMatchObject({
      triggerId: 'schedule.cron',
      cron: '0 9,17 * * *',
      capabilities: ['slack.post_message'],
    });
  });
});

describe('offline analyst: a table of who does what', () => {
  const RACI = [
    'The assistant takes the rows marked Bot.',
    '',
    '| Task | Who | When |',
    '|---|---|---|',
    '| Log the enquiry as a HubSpot contact | Bot | When the website enquiry form is submitted |',
    '| Run the conflict check | Jo | Same day as the enquiry |',
    '| Send the engagement letter for e-signature in DocuSign | Bot | When the engagement letter is approved in Notion |',
    '| Set that tracker row\'s status to "Letter sent" in Notion | Bot | Right after sending the letter |',
    '| Create a matter folder in Google Drive | Bot | When the engagement letter comes back signed |',
    '| Post the new matter in #private-client on Slack | Bot | When the engagement letter comes back signed |',
    '| Raise the invoice in QuickBooks | Bev | When the engagement letter comes back signed |',
  ].join('\n');

  it("given a Who column with rows of the bot, when analysed, then only the bot's rows are work", () => {
    expect(capabilities(RACI)).not.toContain('quickbooks.create_invoice');
    expect(capabilities(RACI)).toContain('hubspot.create_contact');
  });

  it('given the case in the last column, when analysed, then each case starts its work', () => {
    expect(triggers(RACI)).toEqual(['webhook.incoming_webhook', 'notion.page_updated', 'docusign.envelope_completed']);
  });

  it("given a row that follows on and rows of one case, when analysed, then they are one workflow's steps", () => {
    const [, letter, signed] = workflowsOf(RACI);
    expect(letter?.capabilities).toEqual(['docusign.send_envelope', 'notion.update_database_item']);
    expect(signed?.capabilities).toEqual(['google-drive.create_folder', 'slack.post_message']);
  });

  it('given a Who column that names no assistant, when analysed, then every row is work, as before', () => {
    const table = [
      '| When | What to do | Who |',
      '|---|---|---|',
      '| A new lead comes in from HubSpot | Post it in #sales | Sam |',
      '| A Stripe payment fails | Email the customer | Ana |',
    ].join('\n');
    expect(capabilities(table)).toEqual(['slack.post_message', 'gmail.send_email']);
  });
});

describe('offline analyst: a place named with its product is in that product', () => {
  it('given "the Notion "Intake" tracker" once, when a start names the Intake tracker only, then it is Notion\'s', () => {
    const text = [
      'Record each enquiry in the Notion "Intake" tracker.',
      '',
      'When an Intake tracker row\'s status changes to "Cleared", send the engagement letter with DocuSign.',
    ].join('\n');
    expect(workflowsOf(text).at(-1)?.triggerId).toBe('notion.page_updated');
  });

  it('given "the IT project in Jira" once, when a duty raises a ticket in the IT project, then it is a Jira issue', () => {
    const text = [
      'Hardware lives in the IT project in Jira.',
      '',
      'When a new hire is added in BambooHR, raise a ticket in the IT project for their laptop.',
    ].join('\n');
    expect(workflowsOf(text).at(-1)?.capabilities).toEqual(['jira.create_issue']);
  });

  it('given a place with no name of its own ("our Notion board"), when another board is named, then nothing is assumed', () => {
    const text = 'We plan in our Notion board.\n\nWhen a Jira issue is created, post it to the team board in #eng.';
    expect(workflowsOf(text).at(-1)?.capabilities).toEqual(['slack.post_message']);
  });
});

describe('offline analyst: a start said as a noun, and where a start is heard', () => {
  it.each([
    ['Upon payment of the deposit invoice in Stripe: post it in #lettings.', 'stripe.invoice_paid'],
    ['Upon failure of a rent payment: email the tenant.', 'stripe.payment_failed'],
    ['On signature of the tenancy agreement in DocuSign, email the landlord.', 'docusign.envelope_completed'],
  ])('given "%s", when analysed, then it starts on %s', (text, trigger) => {
    expect(triggers(text)).toEqual([trigger]);
  });

  it('given "our website notifies us" of a cancellation, when analysed, then the start is a webhook', () => {
    expect(
      triggers('Upon cancellation of a viewing (our website notifies us when someone cancels): text the negotiator.'),
    ).toEqual(['webhook.incoming_webhook']);
  });

  it('given a quoted calendar name, when a viewing is cancelled in it, then the calendar cancels it', () => {
    expect(capabilities('When a HubSpot deal is lost, cancel the viewing in the "Viewings" calendar.')).toEqual([
      'google-calendar.cancel_event',
    ]);
  });
});

describe('offline analyst: lists under their start, and what is said in one step', () => {
  it('given a blank line between "When …:" and its numbered items, when analysed, then every item is its work', () => {
    const text = [
      'When a GP referral comes into the referrals@ inbox:',
      '',
      '1. Save it into the Referrals folder on our Google Drive.',
      '2. Text the patient the date.',
      '3. Post in #desk.',
    ].join('\n');
    expect(workflowsOf(text)).toHaveLength(1);
    expect(capabilities(text)).toEqual(['google-drive.upload_file', 'twilio.send_sms', 'slack.post_message']);
  });

  it('given how someone works today, each time something comes, over a list, when analysed, then the list is the work', () => {
    const text = [
      'Right now Maria on our front desk does this every time a GP referral comes into the referrals@ inbox:',
      '',
      '1. She saves it into the Referrals folder on our Google Drive.',
      '2. She labels the email "Booked" in Gmail.',
    ].join('\n');
    expect(workflowsOf(text)).toMatchObject([
      { triggerId: 'gmail.new_email', capabilities: ['google-drive.upload_file', 'gmail.label_email'] },
    ]);
  });

  it('given "the date and time" and "tells them to reply if …", when analysed, then it is one text message', () => {
    const [flow] = workflowsOf(
      "When a Twilio text comes in, text the patient the date and time from the clinic number and tell them to reply if it doesn't suit.",
    );
    expect(flow?.capabilities).toEqual(['twilio.send_sms']);
  });
});

describe('offline analyst: wishes said as what would help', () => {
  it('given "…, but it would help if their text was posted to #front-desk", when analysed, then it is posted', () => {
    const text =
      'When a patient texts back, she rings them. She wants to keep doing that part herself, but it would help if their text was posted to our #front-desk Slack channel.';
    expect(workflowsOf(text)).toMatchObject([{ triggerId: 'twilio.sms_received', capabilities: ['slack.post_message'] }]);
  });

  it('given "what I\'d like is for every order email that comes in to become a new card …", when analysed, then each makes a card and is answered', () => {
    const text =
      "The cafes email their orders in, so what I'd like is for every order email that comes in to become a new card on the Orders board in Notion, and then for the cafe to get a quick email back confirming we've got it.";
    expect(workflowsFor(['gmail', 'notion'], text)).toMatchObject([
      { triggerId: 'gmail.new_email', capabilities: ['notion.create_page', 'gmail.send_email'] },
    ]);
  });

  it('given "…, but when a cafe actually pays one of those invoices it would be lovely if the card got its Paid box ticked", when analysed, then that start ticks it', () => {
    const text =
      'Every order goes on the Orders board in Notion. Marta does the invoicing herself in Stripe, but when a cafe actually pays one of those invoices it would be lovely if the matching card on the Orders board got its Paid box ticked.';
    expect(workflowsFor(['stripe', 'notion'], text).at(-1)).toMatchObject({
      triggerId: 'stripe.invoice_paid',
      capabilities: ['notion.update_database_item'],
    });
  });
});
