import { describe, expect, it } from 'vitest';
import { analyseJob } from '../src';
import { unknownProductsIn } from '../src/text';
import { workflowsFor } from './workflows-of';

const desk = ['gmail', 'slack', 'zendesk', 'jira', 'stripe', 'hubspot', 'docusign', 'google-drive', 'salesforce', 'schedule'];

describe('offline analyst: starts said in plain sentences', () => {
  it('given things a label names, then how they reach us, when analysed, then their arrival is the start', () => {
    const said = workflowsFor(
      desk,
      'Warranty claims: they come in to claims@potterykiln.com. Open a Zendesk ticket for each one.',
    );
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ triggerId: 'gmail.new_email', capabilities: ['zendesk.create_ticket'] });
  });

  it('given a plural noun that reads as a verb, then how they land, when analysed, then it is the subject of an arrival', () => {
    const said = workflowsFor(desk, 'Repair requests land in our Gmail inbox. Forward each one to #workshop on Slack.');
    expect(said).toHaveLength(1);
    expect(said[0]?.triggerId).toBe('gmail.new_email');
    // and an order stays an order: "Refund the order" is no arrival
    expect(workflowsFor(desk, 'When a ticket is tagged refund, refund the order in Stripe.')[0]?.capabilities).toEqual([
      'stripe.refund_payment',
    ]);
  });

  it('given a part of the business said with the product it runs on, when analysed, then it is no work and no start', () => {
    const said = workflowsFor(
      desk,
      'Small bakery. Support runs through Gmail + Zendesk and payments through Stripe.\n\nWhen a payment fails, post it in #billing on Slack.',
    );
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ triggerId: 'stripe.payment_failed', capabilities: ['slack.post_message'] });
  });

  it('given a first line that says which team writes, when analysed, then it is no duty', () => {
    const said = workflowsFor(
      desk,
      'Support team at a furniture retailer (8 agents). We use Zendesk for support.\n- high-priority tickets -> post them in #escalations',
    );
    expect(said).toHaveLength(1);
    expect(said[0]?.steps).toEqual(['post them in #escalations']);
  });

  it('given a label that names what befell things, when analysed, then the label is the start of the work after it', () => {
    const said = workflowsFor(desk, 'Declined cards (monthly plans): email the customer and post them in #billing.');
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({
      triggerId: 'stripe.payment_failed',
      capabilities: ['gmail.send_email', 'slack.post_message'],
    });
  });

  it('given a list whose item names a kind of items alone before an arrow, when analysed, then it is their arrival', () => {
    const said = workflowsFor(
      desk,
      '- high-priority tickets -> post them in #escalations\n- every Friday at 4pm post the weekly numbers in #support',
    );
    expect(said.map((w) => w.triggerId)).toEqual(['zendesk.new_ticket', 'schedule.cron']);
  });

  it('given someone changing a ticket, when analysed, then the ticket updated is the start', () => {
    const set = workflowsFor(
      desk,
      'When an agent marks a billing ticket as solved with the tag credit_ok, issue a refund in Stripe.',
    );
    expect(set[0]).toMatchObject({ triggerId: 'zendesk.ticket_updated', capabilities: ['stripe.refund_payment'] });
    const tagged = workflowsFor(desk, 'When someone tags a ticket "defect", open a Jira bug in project QA.');
    expect(tagged[0]).toMatchObject({ triggerId: 'zendesk.ticket_updated', capabilities: ['jira.create_issue'] });
  });

  it('given a payment said as paid through Stripe, with an amount in thousands, when analysed, then an invoice paid over that amount', () => {
    const said = workflowsFor(desk, 'ping #sales in slack each time a large order comes in (over $3.5k paid via stripe)');
    expect(said[0]).toMatchObject({ triggerId: 'stripe.invoice_paid', params: { minAmount: 3500 } });
  });

  it('given a reply to texts we sent, said of "those texts", when analysed, then a text received', () => {
    const said = workflowsFor(
      ['twilio', 'slack', 'google-calendar'],
      'We text every client the day before their visit, and clients answer those texts a lot. Whenever an answer comes in (they respond to those texts), post it in #desk.',
    );
    expect(said.map((w) => w.triggerId)).toContain('twilio.sms_received');
  });

  it('given time passing with nothing done, when analysed, then it is looked for on a schedule of its own', () => {
    const said = workflowsFor(
      desk,
      [
        '- when a customer emails support@, open a Zendesk ticket',
        '- if a ticket stays unassigned for 4 hours, ping #support-leads in Slack',
        '- if an order still has not shipped after three days, email the customer an apology',
      ].join('\n'),
    );
    expect(said.map((w) => [w.triggerId, w.cron])).toEqual([
      ['gmail.new_email', undefined],
      ['schedule.cron', '0 * * * *'],
      ['schedule.cron', '0 9 * * *'],
    ]);
    // (not a time before a dated thing, nor an invoice overdue, which a product reports itself)
    expect(
      workflowsFor(['quickbooks', 'gmail'], 'If a QuickBooks invoice is still unpaid after 14 days, email the client.')[0]
        ?.triggerId,
    ).toBe('quickbooks.invoice_overdue');
  });

  it('given "at that point" after someone moves a record, when analysed, then what should go out then is the work of that move', () => {
    const said = workflowsFor(
      desk,
      'When a client says yes, the account owner moves their deal in HubSpot to "Agreed". At that point the service agreement should go out to the client for signature through DocuSign.',
    );
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({
      triggerId: 'hubspot.deal_stage_changed',
      params: { stage: 'Agreed' },
      capabilities: ['docusign.send_envelope'],
    });
  });

  it('given what each thing should become after a start, when analysed, then it is made from each', () => {
    const said = workflowsFor(
      desk,
      'Whenever a spreadsheet is added to the "Webinar signups" folder in Google Drive, every row should become a contact in HubSpot.',
    );
    expect(said[0]).toMatchObject({ triggerId: 'google-drive.file_added', capabilities: ['hubspot.create_contact'] });
  });

  it('given a new thing that "mentions" something, when analysed, then it is the thing that arrives, not a Slack mention', () => {
    const said = workflowsFor(
      ['zendesk', 'twilio', 'slack'],
      'If a new ticket has high priority, or mentions a gas smell, text the on-call engineer.',
    );
    expect(said[0]).toMatchObject({ triggerId: 'zendesk.new_ticket', capabilities: ['twilio.send_sms'] });
    // (someone who mentions the bot still does)
    expect(workflowsFor(['slack'], 'When someone mentions @deskbot in #help, reply in the thread.')[0]?.triggerId).toBe(
      'slack.mention',
    );
  });

  it('given what "somebody has to" do after a start, when analysed, then it is the duty', () => {
    const said = workflowsFor(
      desk,
      'When a deal is marked won in HubSpot, somebody has to set the client up in Stripe as a customer and send the first invoice.',
    );
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({
      triggerId: 'hubspot.deal_stage_changed',
      params: { stage: 'Closed Won' },
      capabilities: ['stripe.create_customer', 'stripe.create_invoice'],
    });
    // (what somebody must do by hand today is the complaint, not the duty)
    const today = workflowsFor(
      desk,
      'Suppliers send their invoices to bills@ and then someone has to copy everything across by hand. When an email arrives at bills@, save the PDF in Google Drive.',
    );
    expect(today.flatMap((w) => w.steps)).toEqual(['save the PDF in Google Drive']);
  });

  it('given texts reaching us said in other ways, when analysed, then each is a text received', () => {
    const connected = ['twilio', 'slack', 'zendesk', 'google-calendar'];
    const cases: [string, string[]][] = [
      ['Any SMS that comes into our clinic number should be posted in #reception on Slack.', ['slack.post_message']],
      ['Members message us on our text line about bookings. Open a Zendesk ticket for each.', ['zendesk.create_ticket']],
      ['When we get a text from a driver, post it in #dispatch.', ['slack.post_message']],
      ['Text replies from customers go into #orders on Slack.', ['slack.post_message']],
      ['- incoming texts -> #sms-inbox', ['slack.post_message']],
    ];
    for (const [text, capabilities] of cases) {
      const said = workflowsFor(connected, text);
      expect(said, text).toHaveLength(1);
      expect(said[0], text).toMatchObject({ triggerId: 'twilio.sms_received', capabilities });
    }
  });

  it('given a payment said in other ways, when analysed, then an invoice paid', () => {
    for (const text of [
      'When a booking deposit comes in, text the client a thank-you.',
      'After checkout is completed on Stripe, send the welcome email.',
      '- successful payments -> #revenue',
      'When an order is paid for, email the customer a receipt.',
    ])
      expect(workflowsFor(['stripe', 'twilio', 'gmail', 'slack'], text)[0]?.triggerId, text).toBe('stripe.invoice_paid');
  });

  it('given a system of ours that tells us, or people arriving through our site, when analysed, then our webhook is called', () => {
    const connected = ['webhook', 'slack', 'twilio', 'hubspot'];
    for (const text of [
      'Our online store sends us a webhook for every new order. Post each order in #orders.',
      'Our booking app will ping you when someone cancels. Text the customer to confirm.',
      'When someone registers on our site, add them to HubSpot as a contact.',
      'New enquiries from the booking form should be added to HubSpot as contacts.',
    ])
      expect(workflowsFor(connected, text)[0]?.triggerId, text).toBe('webhook.incoming_webhook');
  });

  it('given a ticket answered or changed by someone, and a record that enters a stage, when analysed, then those events', () => {
    expect(workflowsFor(desk, 'When a customer replies on their ticket, post it in #support.')[0]?.triggerId).toBe(
      'zendesk.ticket_updated',
    );
    expect(workflowsFor(desk, "When a ticket's status changes to pending, email the agent.")[0]?.triggerId).toBe(
      'zendesk.ticket_updated',
    );
    expect(workflowsFor(desk, 'When an opp enters Negotiation, email the sales manager.')[0]).toMatchObject({
      triggerId: 'salesforce.opportunity_stage_changed',
      params: { stage: 'Negotiation' },
    });
  });

  it('given a product the catalog lacks as what does the event, when analysed, then that product is the start', () => {
    const said = workflowsFor(desk, 'Whenever Jotform gets a new submission, add it to Notion.');
    expect(said[0]).toMatchObject({ triggerId: null, steps: ['add it to Notion'] });
    expect(analyseJob('Whenever Jotform gets a new submission, add it to Notion.').workflows).toHaveLength(1);
    expect(unknownProductsIn('Whenever Jotform gets a new submission, add it to Notion.').map((p) => p.providerId)).toEqual([
      'jotform',
    ]);
    // (a person or a team that does something is no product)
    expect(unknownProductsIn('When Priya gets a new lead, post in #sales. When Finance sends an invoice, log it.')).toEqual([]);
  });

  it('given the end of each day, and a kind of things named by a label, when analysed, then a 17:00 schedule and their arrival', () => {
    expect(workflowsFor(desk, 'At the end of each day, post the open tickets in #support.')[0]?.cron).toBe('0 17 * * *');
    const said = workflowsFor(desk, 'Support tickets: tag each one by topic.');
    expect(said[0]).toMatchObject({ triggerId: 'zendesk.new_ticket', capabilities: ['zendesk.update_ticket'] });
    // (a case of a start that is open stays one)
    expect(workflowsFor(desk, 'When a ticket arrives in Zendesk:\nRefund requests: reply with our refund policy.')).toHaveLength(
      1,
    );
  });

  it('given the start said inside the duty, when analysed, then it is the start and the duty stays whole', () => {
    const review = workflowsFor(desk, 'Post in #reviews each time a guest leaves a review.');
    expect(review[0]).toMatchObject({ lead: 'Each time a guest leaves a review', steps: ['Post in #reviews'] });
    const contact = workflowsFor(desk, 'Email every new HubSpot contact our onboarding guide.');
    expect(contact[0]).toMatchObject({ triggerId: 'hubspot.new_contact', capabilities: ['gmail.send_email'] });
    const tagged = workflowsFor(desk, 'Create a Jira issue for every Zendesk ticket tagged defect.');
    expect(tagged[0]).toMatchObject({
      triggerId: 'zendesk.new_ticket',
      params: { tag: 'defect' },
      capabilities: ['jira.create_issue'],
    });
    const posted = workflowsFor(desk, 'Post every ticket tagged vip to #vip-desk.');
    expect(posted[0]).toMatchObject({ triggerId: 'zendesk.new_ticket', capabilities: ['slack.post_message'] });
    const each = workflowsFor(desk, 'For every Zendesk ticket tagged defect, create a Jira issue.');
    expect(each[0]).toMatchObject({ triggerId: 'zendesk.new_ticket', params: { tag: 'defect' } });
  });

  it('given things said by what befell them or what they say, with what should be done to them, when analysed, then that is the start', () => {
    const connected = [...desk, 'quickbooks', 'greenhouse'];
    expect(workflowsFor(connected, 'Signed agreements should be filed in the Legal folder in Google Drive.')[0]).toMatchObject({
      triggerId: 'docusign.envelope_completed',
      capabilities: ['google-drive.upload_file'],
    });
    expect(workflowsFor(connected, 'Overdue invoices should be chased by email.')[0]).toMatchObject({
      triggerId: 'quickbooks.invoice_overdue',
      capabilities: ['gmail.send_email'],
    });
    expect(workflowsFor(connected, 'Applicants who apply through Greenhouse should get a thank-you email.')[0]).toMatchObject({
      triggerId: 'greenhouse.candidate_applied',
      capabilities: ['gmail.send_email'],
    });
    expect(workflowsFor(connected, 'Tickets that mention a chargeback get a reply with our policy.')[0]?.triggerId).toBe(
      'zendesk.new_ticket',
    );
    // (people are who, not what befell a thing)
    expect(workflowsFor(connected, 'Late payers should be reminded by email.')[0]?.triggerId).not.toBe(
      'quickbooks.invoice_overdue',
    );
  });

  it('given nobody answering within a time, when analysed, then a scheduled check', () => {
    expect(
      workflowsFor(desk, 'If nobody has replied to an enquiry within two days, remind the owner in Slack.')[0],
    ).toMatchObject({
      triggerId: 'schedule.cron',
      cron: '0 9 * * *',
    });
  });

  it('given a heading of things that befell them in the plural, when analysed, then the thing is said whole', () => {
    expect(workflowsFor(desk, 'Overdue invoices:\n- email the client\n- post in #finance')[0]?.lead).toBe(
      'When an invoice is overdue',
    );
  });

  it('given new ones wished for, asked for in a question, or said to get a message, when analysed, then their arrival and the message', () => {
    const connected = ['bamboohr', 'gmail', 'slack', 'hubspot', 'twilio'];
    for (const text of [
      "We'd like new hires to get a welcome email on their first day.",
      'New hires should get a welcome email.',
      'Send new hires a welcome email.',
      'Could you send new hires a welcome email?',
      'It would be great if you could send new hires a welcome email.',
    ])
      expect(workflowsFor(connected, text)[0], text).toMatchObject({
        triggerId: 'bamboohr.new_hire',
        capabilities: ['gmail.send_email'],
      });
    // (a question that asks for no work stays none)
    expect(workflowsFor(connected, 'Can you tell me how this works?').flatMap((w) => w.steps)).toEqual([]);
  });

  it('given how soon said before the start, or a product\'s event said last after "if", when analysed, then the start', () => {
    expect(workflowsFor(desk, 'Immediately after a payment fails, email the customer.')[0]).toMatchObject({
      triggerId: 'stripe.payment_failed',
      capabilities: ['gmail.send_email'],
    });
    expect(workflowsFor(desk, 'Send an alert to #billing on Slack if a Stripe payment fails.')[0]).toMatchObject({
      triggerId: 'stripe.payment_failed',
      capabilities: ['slack.post_message'],
    });
    // (an "if" said last that is no product's event stays the duty's condition)
    expect(workflowsFor(desk, 'Email the client if the invoice is over $500.')[0]?.triggerId).toBeNull();
  });

  describe('what a review of these readings found, mended', () => {
    const all = [...desk, 'twilio', 'notion', 'google-calendar', 'quickbooks', 'greenhouse', 'bamboohr'];
    const steps = (text: string) => workflowsFor(all, text).flatMap((w) => w.capabilities);
    const triggers = (text: string) => workflowsFor(all, text).map((w) => w.triggerId);

    it('given a part of the business run on a product with a duty after it, or a team spoken to, then the duty stays', () => {
      expect(steps('Billing runs through Stripe — issue refunds there when a customer asks by email.')).toEqual([
        'stripe.refund_payment',
      ]);
      expect(steps('Sales runs on HubSpot and we want every new deal posted in #sales.')).toEqual(['slack.post_message']);
      expect(steps('Warehouse team, log returned items in Notion.')).toEqual(['notion.create_page']);
      expect(steps('Ops team — post the delivery rota in #ops at 7am on weekdays.')).toEqual(['slack.post_message']);
    });

    it('given a time span said of someone or something else in the start, then the event stays the start', () => {
      expect(triggers('When a Jira issue that has been pending for 3 days is moved to Done, comment on it.')).toEqual([
        'jira.issue_transitioned',
      ]);
      expect(triggers('When a Stripe payment fails for a customer who has been pending for 3 days, email them.')).toEqual([
        'stripe.payment_failed',
      ]);
      expect(triggers("If the deposit still hasn't come in 2 days before the event, text the client.")).toEqual([
        'google-calendar.event_starting',
      ]);
      expect(triggers('When an employee goes on leave for more than two weeks, notify payroll by email.')).not.toContain(
        'schedule.cron',
      );
      // (and another product's invoice left unpaid is no QuickBooks one)
      expect(triggers('When a Stripe invoice is still unpaid after 14 days, send the customer a reminder email.')).not.toContain(
        'quickbooks.invoice_overdue',
      );
    });

    it('given a system that already does it, a question that asks for nothing, or what others send, then no work', () => {
      for (const text of [
        "Our accounting software already notifies us when invoices are overdue, so you don't need to do that.",
        "The system will alert you if anything breaks, so don't worry about monitoring.",
        'Can you read my Gmail?',
        'Could you explain how you would handle new Zendesk tickets?',
        'New users get a confirmation email automatically from our app, so skip that.',
        'It would help if the system could stop emailing customers on weekends.',
      ])
        expect(
          steps(text).filter((c) => c !== null),
          text,
        ).toEqual([]);
    });

    it('given labels of what we send or of a kind named by a state, and rules of where posts go, then no arrival', () => {
      for (const text of [
        'Confirmation texts: send them the day before each appointment.',
        'Reminder texts: keep them under 160 characters.',
        'Welcome emails: use the template in Google Drive.',
        'Paid members: add them to the #members-only Slack channel.',
        'Late fees: charge them in Stripe.',
        'All replies should go in #support-thread, never in the main channel.',
      ])
        expect(triggers(text), text).not.toContain('twilio.sms_received');
      expect(workflowsFor(all, 'Paid members: add them to the #members-only Slack channel.')[0]?.lead).toBe('');
      expect(workflowsFor(all, 'December invoices are special: they have to go in January.').flatMap((w) => w.steps)).toEqual([]);
    });

    it('given payments, tags and mentions said of other things, then not those events', () => {
      expect(triggers('When an invoice comes in from a supplier, save it to Google Drive.')).not.toContain('stripe.invoice_paid');
      expect(triggers('When an order ships for a customer who paid through Stripe, email them the tracking link.')).not.toContain(
        'stripe.invoice_paid',
      );
      expect(triggers('When an order is paid for by PayPal, add the buyer to HubSpot.')).not.toContain('stripe.invoice_paid');
      expect(triggers('When QA labels a Jira ticket as a blocker, post it in #eng.')).not.toContain('zendesk.ticket_updated');
      expect(triggers('When a new Slack message is flagged or mentions me, DM me a summary.')).toEqual(['slack.mention']);
      expect(triggers('- new orders -> #orders')).not.toContain('bamboohr.new_hire');
      expect(triggers('When we hit 100 deals in HubSpot, post a celebration in #sales.')).not.toContain(
        'hubspot.deal_stage_changed',
      );
    });

    it('given a refund spoken of, a thing that becomes another, and a posting said of an arrival already started, then the steps stay', () => {
      expect(steps('Send them the refund policy when a customer emails asking for their money back.')).toEqual([
        'gmail.send_email',
      ]);
      expect(steps('Once a deal closes in HubSpot, the contact becomes a customer, so update their lifecycle stage.')).toEqual([
        'hubspot.update_contact',
      ]);
      const said = workflowsFor(
        all,
        'When a parent texts us, log it in Notion. Text replies from parents go into #office on Slack.',
      );
      expect(said).toHaveLength(1);
      expect(said[0]?.capabilities).toEqual(['notion.create_page', 'slack.post_message']);
      expect(steps('Send every new HubSpot contact a welcome email.')).toEqual(['gmail.send_email']);
    });
  });

  it('given an hour said after the days, a kind of report named by how often, or an hour before a date of the month, then the schedule says them', () => {
    expect(workflowsFor(desk, 'Remind the team every Tuesday at noon to update the pipeline.')[0]?.cron).toBe('0 12 * * 2');
    expect(workflowsFor(desk, 'Send the monthly newsletter on the first Monday of each month.')[0]?.lead).not.toBe('monthly');
    expect(workflowsFor(desk, 'Post the weekly numbers in #sales every Thursday.')[0]?.cron).toBe('0 9 * * 4');
    expect(workflowsFor(desk, 'At 8am on the last working day of each month, email finance the expenses list.')[0]).toMatchObject(
      {
        cron: '0 8 LW * *',
        capabilities: ['gmail.send_email'],
      },
    );
  });

  it('given a person joining, an issue labelled, a file in a named folder, or new items to be announced, then those starts', () => {
    const all = [...desk, 'bamboohr', 'github', 'notion'];
    expect(workflowsFor(all, 'When someone new joins (BambooHR), invite them to #general on Slack.')[0]?.triggerId).toBe(
      'bamboohr.new_hire',
    );
    expect(workflowsFor(all, "When a GitHub issue is labelled 'security', post it in #security.")[0]).toMatchObject({
      triggerId: 'github.issue_opened',
      params: { label: 'security' },
    });
    expect(workflowsFor(all, 'When a file lands in the Inbox folder, post it in #files.')[0]).toMatchObject({
      triggerId: 'google-drive.file_added',
      params: { folder: 'Inbox' },
    });
    expect(workflowsFor(all, 'New pull requests on the web repo should be announced in #web.')[0]).toMatchObject({
      triggerId: 'github.pull_request_opened',
      capabilities: ['slack.post_message'],
    });
    // (an email landing in the inbox stays an email; someone starting a chat is no new hire; a Jira issue is no GitHub one)
    expect(workflowsFor(all, 'When a new email lands in the inbox, label it.')[0]?.triggerId).toBe('gmail.new_email');
    expect(workflowsFor(all, 'When someone starts a chat on our website, create a HubSpot contact.')[0]?.triggerId).not.toBe(
      'bamboohr.new_hire',
    );
    expect(workflowsFor(all, 'When a Jira issue is labelled urgent, post it in #eng.')[0]?.triggerId).not.toBe(
      'github.issue_opened',
    );
  });
});
