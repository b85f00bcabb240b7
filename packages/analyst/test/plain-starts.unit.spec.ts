import { describe, expect, it } from 'vitest';
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
});
