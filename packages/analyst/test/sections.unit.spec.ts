import { describe, expect, it } from 'vitest';
import { handedOver, oneLacked, splitClauses } from '../src/segment';
import { workflowsOf } from './workflows-of';

const SOP = [
  'SOP-OPS-014 – documentation & exceptions desk',
  '',
  '1. Inbound documents (docs@ourco.com)',
  '   1.a When an email arrives at docs@ with a bill of lading attached, find the booking reference in the subject.',
  '   1.b If there is no folder for that booking under Drive > Shipments, create one.',
  "   1.c Save every attachment into the booking's folder.",
  '   1.d Label the email "Filed" in Gmail.',
  '',
  '2. Delay exceptions (Zendesk)',
  '   2.a Trigger: a new Zendesk ticket tagged "delay".',
  '   2.b Set the priority to High.',
  '   2.c Post the booking reference in #ops-exceptions on Slack.',
  '',
  '3. Weekly housekeeping',
  '   3.a Every Monday at 07:00, search the docs@ mailbox for emails labelled "Missing docs".',
  '   3.b Post the list to #ops in Slack.',
].join('\n');

describe('offline analyst: a procedure in numbered sections with sub-items', () => {
  it('given sub-items "1.a", "1.b", … under a section, when analysed, then they are one workflow: the start of the first and the duties of all', () => {
    expect(workflowsOf(SOP)[0]).toMatchObject({
      triggerId: 'gmail.new_email',
      capabilities: [null, 'google-drive.create_folder', 'google-drive.upload_file', 'gmail.label_email'],
    });
  });

  it('given a section title with no start of its own ("2. Delay exceptions (Zendesk)", "3. Weekly housekeeping"), when analysed, then it does no work and starts nothing', () => {
    const workflows = workflowsOf(SOP);
    expect(workflows).toHaveLength(3);
    expect(workflows.flatMap((w) => w.steps)).not.toContain('Delay exceptions (Zendesk)');
    expect(workflows.map((w) => w.cron)).toEqual([undefined, undefined, '0 7 * * 1']);
  });

  it('given a labelled start as the first sub-item ("2.a Trigger: a new Zendesk ticket tagged …"), when analysed, then the items after it are its duties', () => {
    expect(workflowsOf(SOP)[1]).toMatchObject({
      triggerId: 'zendesk.new_ticket',
      capabilities: ['zendesk.update_ticket', 'slack.post_message'],
    });
  });

  it('given a section title that says an arrival ("1. Screening form submitted (website → webhook)"), when analysed, then its sub-items run when it arrives', () => {
    expect(
      workflowsOf(
        [
          'Lab runbook',
          '',
          '1. Screening form submitted (lab website → webhook)',
          '  1a. Send the study consent form via DocuSign.',
          '  1b. Post the participant ID in #screening.',
        ].join('\n'),
      )[0],
    ).toMatchObject({ triggerId: 'webhook.incoming_webhook', capabilities: ['docusign.send_envelope', 'slack.post_message'] });
  });

  it('given decimal sub-items ("1.1", "1.2") under plain titles, when analysed, then each section is a workflow of its own', () => {
    const workflows = workflowsOf(
      [
        'Ops SOP',
        '',
        '1. New orders',
        '1.1 When a HubSpot deal is won, create a HubSpot task for the account owner.',
        '1.2 Email the customer a thank-you.',
        '2. Friday report',
        "2.1 Every Friday at 4pm, post the week's won deals in #sales.",
      ].join('\n'),
    );
    expect(workflows.map((w) => w.capabilities)).toEqual([['hubspot.create_task', 'gmail.send_email'], ['slack.post_message']]);
  });
});

describe('offline analyst: "one" made where a condition said there is none', () => {
  it('given "If there is no folder for that booking, create one", when read, then a folder is created', () => {
    expect(oneLacked('If there is no folder for that booking', 'create one')).toBe('create a folder');
  });

  it('given a condition that lacks nothing, when read, then the duty is left as said', () => {
    expect(oneLacked('If the amount is over $100', 'create one')).toBe('create one');
  });
});

describe('offline analyst: a ticket that asks for something has come in', () => {
  it('given "When a Zendesk ticket asks for a refund", when analysed, then a new ticket starts it', () => {
    expect(
      workflowsOf('Refunds desk\nWhen a Zendesk ticket asks for a refund, reply on the ticket with our policy.')[0]?.triggerId,
    ).toBe('zendesk.new_ticket');
  });
});

describe('offline analyst: a duty, a colon, and another duty', () => {
  it('given "go through what came in overnight: save every attachment …", when split, then both are duties', () => {
    expect(
      splitClauses("go through what came into clientdocs@ overnight: save every attachment into the client's folder on Drive")
        .clauses,
    ).toEqual(['go through what came into clientdocs@ overnight', "save every attachment into the client's folder on Drive"]);
  });

  it('given a message and its words after a colon ("text them: reply STOP to stop"), details ("…: pages × $4.25") or what something else does ("…: it POSTs …"), when split, then the colon parts nothing', () => {
    for (const said of [
      'text them: reply STOP to stop',
      'create the QuickBooks invoice for the firm: pages × $4.25',
      'receive a call from our MES each time a part fails: it POSTs the part number',
    ])
      expect(splitClauses(said).clauses).toEqual([said]);
  });
});

describe('offline analyst: what the review of the readings above found read wrongly, read as said', () => {
  it('given a numbered duty with sub-items that detail it ("1. Email the daily report … at 5pm every day." over "1.1 …"), when analysed, then the duty stays', () => {
    expect(
      workflowsOf(
        [
          'Office helper',
          '',
          '1. Email the daily report to the manager every day at 5pm.',
          '1.1 Version 1.1 of the report template is in Google Drive.',
        ].join('\n'),
      ).flatMap((w) => w.capabilities),
    ).toContain('gmail.send_email');
  });

  it('given a reply that adds to a thread ("adding one more thing: …" over quoted duties), when analysed, then the quoted duties stay', () => {
    const capabilities = workflowsOf(
      [
        'Hi, adding one more thing: also post each new order in #orders.',
        '',
        'On Tue, 4 Mar 2025 at 15:40, Daniel <daniel@ourco.com> wrote:',
        '> When a new order arrives by email, save the invoice to Google Drive.',
      ].join('\n'),
    ).flatMap((w) => w.capabilities);
    expect(capabilities).toContain('google-drive.upload_file');
  });

  it('given a weekday naming a thing that comes or one made on another day ("the Monday list … every Sunday at 6pm", "the Tuesday update emails"), when analysed, then the other day or the arrival starts it', () => {
    expect(workflowsOf('Office helper\nSend the Monday list of deliveries to the drivers every Sunday at 6pm.')[0]?.cron).toBe(
      '0 18 * * 0',
    );
    expect(workflowsOf('Office helper\nReply to the Tuesday update emails from clients within a day.')[0]?.cron).toBeUndefined();
  });

  it('given days of the month before a weekday or a month ("On the 1st and 3rd Monday", "the 1st and 15th of March"), when analysed, then they are not read as days of every month', () => {
    expect(workflowsOf('Office helper\nOn the 1st and 3rd Monday, post the rota in #staff.')[0]?.cron).not.toBe('0 9 1,3 * *');
  });

  it('given what a handover writer is, uses or decides ("I work Monday to Thursday", "I approve every refund over $100"), when analysed, then it is no duty', () => {
    for (const said of [
      'I work Monday to Thursday',
      'I approve every refund over $100 in Stripe',
      'I sign all the contracts in DocuSign',
    ])
      expect(handedOver(said)).toBe(said);
  });

  it('given a colon before a condition ("check the calendar for the date: if the slot is free, book it") or a list of fields ("log the call in HubSpot: date, duration and outcome"), when split, then the colon parts nothing', () => {
    for (const said of [
      'check the calendar for the requested date: if the slot is free',
      'log the call in HubSpot: date, duration and outcome',
    ])
      expect(splitClauses(said).clauses[0]).toBe(said);
  });

  it('given "If the customer has no account, create one", when read, then "one" is left as said (only "there is no …" names the thing made)', () => {
    expect(oneLacked('If the customer has no account', 'create one')).toBe('create one');
  });
});
