import { describe, expect, it } from 'vitest';
import { handedOver } from '../src/segment';
import { workflowsOf } from './workflows-of';

const HANDOVER = [
  'Handover notes – recruitment coordinator',
  '',
  "I'm off on maternity leave from Friday so I'm writing down everything I do so the assistant can pick it up.",
  '',
  'Whenever someone applies for a job on Greenhouse I send them our "Working in care" email. Then I put a message in #home-managers to say who applied.',
  '',
  'First thing every Monday I remind the home managers in #home-managers to send me their rota gaps.',
].join('\n');

describe('offline analyst: a note that hands its writer’s work over', () => {
  it('given "Then I put a message in #home-managers" in a handover note, when analysed, then posting it is a duty, not someone posting', () => {
    expect(workflowsOf(HANDOVER)[0]).toMatchObject({
      triggerId: 'greenhouse.candidate_applied',
      capabilities: ['gmail.send_email', 'slack.post_message'],
    });
  });

  it('given "First thing every Monday I remind …", when analysed, then it runs every Monday and reminds in the channel', () => {
    expect(workflowsOf(HANDOVER)[1]).toMatchObject({ cron: '0 9 * * 1', capabilities: ['slack.post_message'] });
  });

  it('given what the writer keeps, thinks or is ("I do the offer letters myself", "I think …", "I am …"), when read, then it stays as said', () => {
    for (const said of ['I do the offer letters myself in DocuSign', 'I think that is everything', 'I am off from Friday'])
      expect(handedOver(said)).toBe(said);
    expect(handedOver('Then I post the rota in #team')).toBe('Then post the rota in #team');
  });

  it('given first-person sentences in a note that hands nothing over, when analysed, then they are not made duties', () => {
    const workflows = workflowsOf(
      'Charity shop manager\nI manage the shop on Market Street. When a volunteer posts in #volunteers that they cannot make a shift, post in #cover-needed so someone can pick it up.',
    );
    expect(workflows.flatMap((w) => w.steps)).not.toContain('manage the shop on Market Street');
  });
});

describe('offline analyst: words around a start that are not the start', () => {
  it('given "Please read all of this carefully." first, when analysed, then it is no duty', () => {
    expect(
      workflowsOf(
        'Out-of-hours assistant\nPlease read all of this carefully. When an email arrives at enquiries@ourco.com, reply with our holding message.',
      )
        .flatMap((w) => w.steps)
        .some((s) => /read/i.test(s)),
    ).toBe(false);
  });

  it('given who it is for and what is needed before the start, with no comma ("ok so this is for the club and basically what I need is when someone fills in the form add them …"), when analysed, then the form starts it and adding them is its duty', () => {
    expect(
      workflowsOf(
        'club admin\nok so this is for ashgrove hockey club and basically what I need is when someone fills in the membership form on the website add them into hubspot as a contact',
      )[0],
    ).toMatchObject({ triggerId: 'webhook.incoming_webhook', capabilities: ['hubspot.create_contact'] });
  });

  it('given "… and then when …" and "… and then every thursday …" in a run-on, when analysed, then each starts its own workflow', () => {
    const workflows = workflowsOf(
      'club admin\nwhen someone fills in the membership form on the website add them into hubspot as a contact and then when somebody’s subs payment fails in stripe just email them a nice nudge and then every thursday at 6pm post in the general channel on slack reminding everyone to send their availability',
    );
    expect(workflows.map((w) => w.triggerId)).toEqual(['webhook.incoming_webhook', 'stripe.payment_failed', 'schedule.cron']);
  });

  it('given "But once someone …, I …", when analysed, then "But" is no part of the start', () => {
    expect(
      workflowsOf('HR helper\nBut once a new hire is added in BambooHR, I add them to the #team channel on Slack.')[0],
    ).toMatchObject({ triggerId: 'bamboohr.new_hire', capabilities: ['slack.invite_user'] });
  });
});

describe('offline analyst: an email thread pasted whole', () => {
  const THREAD = [
    'Subject: Re: Intake assistant',
    '',
    'OK, agreed with Daniel. So, to summarise:',
    '- When a new enquiry comes in from the website form, add the person to HubSpot as a contact.',
    '',
    'On Tue, 4 Mar 2025 at 15:40, Daniel <daniel@ourfirm.law> wrote:',
    '> Drop the Friday digest idea, nobody will read it.',
    '> - Friday 4pm digest of the week’s enquiries in #partners',
  ].join('\n');

  it('given a newest message that says the work, over quoted messages, when analysed, then the quoted drafts and their headers do nothing', () => {
    expect(workflowsOf(THREAD)).toMatchObject([
      { triggerId: 'webhook.incoming_webhook', capabilities: ['hubspot.create_contact'] },
    ]);
  });

  it('given a newest message that only points below, when analysed, then the quoted message is the job', () => {
    const workflows = workflowsOf(
      [
        'Please set this up, thanks!',
        '',
        '---------- Forwarded message ---------',
        '> When a new enquiry comes in from the website form, add the person to HubSpot as a contact.',
      ].join('\n'),
    );
    expect(workflows.flatMap((w) => w.capabilities)).toContain('hubspot.create_contact');
  });
});

describe('offline analyst: what a thing needs, said as doing and as done', () => {
  it('given "they need setting up as a customer in Stripe and sending the deposit invoice, their date blocked out on the calendar, and their deal moved to Booked", when analysed, then each is a duty', () => {
    expect(
      workflowsOf(
        'Venue admin\nOnce a couple signs the booking contract on DocuSign, they need setting up as a customer in Stripe and sending the £2,000 deposit invoice, their date blocked out on the venue calendar, and their deal in HubSpot moved to Booked.',
      )[0]?.steps,
    ).toEqual([
      'set up them as a customer in Stripe',
      'send them the £2,000 deposit invoice',
      'block out their date on the venue calendar',
      'move their deal in HubSpot to Booked',
    ]);
  });
});

describe('offline analyst: a call transcript', () => {
  const CALL = [
    'Transcript of a call.',
    '',
    'Me: So what do you want it doing first?',
    "Sam: When someone's membership payment fails on Stripe, text them a link to update their card.",
    'Me: And then?',
    'Sam: Put it in #front-desk on Slack too.',
    'Me: New joiners?',
    'Sam: The join form on the website posts to it. Book their free induction with whichever PT has an hour free in their first week.',
  ].join('\n');

  it('given the asker’s lines of questions only ("Me: And then?"), when analysed, then they are no duties', () => {
    expect(workflowsOf(CALL)[0]).toMatchObject({
      triggerId: 'stripe.payment_failed',
      steps: ['text them a link to update their card', 'Put it in #front-desk on Slack too'],
    });
  });

  it('given "whichever PT has an hour free", when analysed, then a free slot is found before the booking', () => {
    expect(workflowsOf(CALL)[1]?.capabilities).toEqual(['google-calendar.find_free_slot', 'google-calendar.create_event']);
  });
});
