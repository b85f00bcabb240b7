import { describe, expect, it } from 'vitest';
import { analyseJob } from '../src';
import { parseSchedule } from '../src/schedule';
import { oneNamed } from '../src/segment';
import { workflowsOf } from './workflows-of';

describe('offline analyst: rules written "IF … THEN …"', () => {
  const rules = [
    'Rules for the office assistant:',
    '',
    'IF someone emails asking for a sweep THEN offer them two free morning slots from the van calendar.',
    'IF an invoice is 14 days overdue THEN text the customer a reminder.',
    "IF it's the 1st of October THEN email everyone we swept last year reminding them to book.",
    'IF a customer texts back STOP THEN never text them again.',
  ].join('\n');

  it('given rules that each name what happens, when analysed, then each opens a workflow of its own', () => {
    expect(workflowsOf(rules)).toMatchObject([
      { triggerId: 'gmail.new_email' },
      { triggerId: 'quickbooks.invoice_overdue', params: { daysOverdue: 14 }, steps: ['text the customer a reminder'] },
      { triggerId: 'schedule.cron', cron: '0 9 1 10 *', capabilities: ['gmail.send_email'] },
    ]);
  });

  it('given a rule whose only duty is one not to do, when analysed, then it is a guideline and no workflow', () => {
    expect(workflowsOf(rules).some((w) => w.triggerId === 'twilio.sms_received')).toBe(false);
    const { workflows } = analyseJob(rules);
    expect(workflows).toHaveLength(3);
    for (const w of workflows) expect(w.description).toContain('Guideline: IF a customer texts back STOP');
  });

  it('given a start whose "don\'t" comes with what to do instead, or with a duty in the next sentence, when analysed, then the workflow stays', () => {
    expect(
      workflowsOf("When a refund ticket comes in within 48h of the game: Don't refund. Reply with our 48-hour policy."),
    ).toMatchObject([{ steps: ['Reply with our 48-hour policy'] }]);
    expect(
      workflowsOf(
        "When a Zendesk ticket comes in, tag it. If it comes to more than £1,000, don't send it, leave it as a draft.",
      )[0]?.steps,
    ).toContain('leave it as a draft');
  });

  it('given "then" inside a start ("and then", a comma before it), when analysed, then it ends no lead', () => {
    expect(workflowsOf('When a deal closes and then gets paid in Stripe, email Bob.')[0]?.steps).toEqual(['email Bob']);
  });
});

describe('offline analyst: days of the year and times said apart', () => {
  it('given a day of a month that opens the duty, when parsed, then it comes round each year on that day', () => {
    expect(parseSchedule("IF it's the 1st of October")?.expression).toBe('0 9 1 10 *');
    expect(parseSchedule('On 1 March each year')?.expression).toBe('0 9 1 3 *');
    expect(parseSchedule('Every January 15th at 10am')?.expression).toBe('0 10 15 1 *');
    expect(workflowsOf('On the 1st of September, email the Allotments Officer a reminder.')).toMatchObject([
      { triggerId: 'schedule.cron', cron: '0 9 1 9 *', steps: ['email the Allotments Officer a reminder'] },
    ]);
  });

  it('given months listed after the day, when analysed, then every month is kept', () => {
    expect(
      workflowsOf('On the first day of February, May, August and November at 9 in the morning, email every member a preview.')[0]
        ?.cron,
    ).toBe('0 9 1 2,5,8,11 *');
  });

  it('given a date with its year, or a deadline inside a duty, when analysed, then no schedule is read', () => {
    expect(workflowsOf('On the 3rd of March 2027, launch the new menu.')[0]?.triggerId).not.toBe('schedule.cron');
    expect(workflowsOf('When a Zendesk ticket comes in, send the report by March 31st.')[0]?.triggerId).toBe(
      'zendesk.new_ticket',
    );
  });

  it('given a time of day and a run of days said apart from "every morning", when analysed, then the cron keeps both and the duty its words', () => {
    expect(workflowsOf("And post the day's appointments in #studio at 9:30 every morning we're open (Tue–Sat).")).toMatchObject([
      { cron: '30 9 * * 2-6', steps: ["And post the day's appointments in #studio we're open (Tue–Sat)"] },
    ]);
  });

  it('given a number written onto its unit and an appointment shortened, when analysed, then the time before it is read', () => {
    expect(workflowsOf('also 2hrs before each appt text the owner a reminder to walk the dog first.')).toMatchObject([
      { triggerId: 'google-calendar.event_starting', params: { minutesBefore: 120 }, capabilities: ['twilio.send_sms'] },
    ]);
  });

  it('given how long something lasts before an event ("no food for 2 hours before swimming"), when analysed, then it is no start', () => {
    expect(
      workflowsOf('An hour before every session, text the owner to remind them, and say no food for 2 hours before swimming.'),
    ).toHaveLength(1);
  });
});

describe('offline analyst: how late an invoice is, said in steps', () => {
  it('given "two days after an invoice is overdue" and "at 14 days overdue", when analysed, then each is the invoice that many days overdue', () => {
    expect(
      workflowsOf(
        [
          '- Two days after an invoice is overdue, email the customer a friendly reminder.',
          '- At 14 days overdue, send a firmer email.',
        ].join('\n'),
      ),
    ).toMatchObject([
      { triggerId: 'quickbooks.invoice_overdue', params: { daysOverdue: 2 } },
      { triggerId: 'quickbooks.invoice_overdue', params: { daysOverdue: 14 }, steps: ['send a firmer email'] },
    ]);
  });
});

describe('offline analyst: work routed to someone', () => {
  it('given some of the work at hand that "goes to" a person by a channel, when analysed, then sending it on is a duty of the workflow before', () => {
    expect(
      workflowsOf('When a Zendesk ticket comes in, tag it. Anything over €5,000 goes straight to Luís in Slack.')[0]?.steps,
    ).toEqual(['tag it', 'send them to Luís in Slack']);
  });

  it('given work of a kind that "goes to" a person by a channel, when analysed, then it arrives and is sent on, a workflow of its own', () => {
    expect(workflowsOf('When a Zendesk ticket comes in, tag it. Billing questions go to Sam on Slack.')).toMatchObject([
      { triggerId: 'zendesk.new_ticket', steps: ['tag it'] },
      { lead: 'When billing questions come in', steps: ['send them to Sam on Slack'], capabilities: ['slack.post_message'] },
    ]);
  });

  it('given things that "go to" a product, a place or a status, or a name with no way of sending, when analysed, then nothing is routed', () => {
    for (const text of [
      'When a Shopify order comes in, add it to the sheet. Payments go to Stripe.',
      'When a course books, email the tutor. Students go to Room 4 on arrival.',
      'Chris goes to Leeds on Mondays to collect stock.',
      'Tickets go to Solved when answered.',
    ])
      expect(
        workflowsOf(text)
          .flatMap((w) => w.steps)
          .join(' '),
      ).not.toContain('send them to');
  });

  it('given a record that goes to a stage, or items that go to someone for approval, when analysed, then nothing is routed', () => {
    expect(workflowsOf('When an opp goes to Closed Won in Salesforce, post the win in #sales.')).toMatchObject([
      { triggerId: 'salesforce.opportunity_stage_changed', params: { stage: 'Closed Won' } },
    ]);
    expect(
      workflowsOf('Orders over £2,500 go to Marco on Slack for a yes first.')
        .flatMap((w) => w.steps)
        .join(' '),
    ).not.toContain('send them to Marco');
  });
});

describe('offline analyst: a duty said around its start', () => {
  it('given arrival "into" an inbox, when analysed, then an email starts the workflow', () => {
    expect(workflowsOf('When a special order request comes into the shop inbox, reply to the customer.')[0]?.triggerId).toBe(
      'gmail.new_email',
    );
  });

  it('given "At that point," before a duty, when analysed, then the duty is a step of the workflow before', () => {
    expect(
      workflowsOf(
        'When a book comes in, one of us changes its status in Notion to "Arrived". At that point, email the customer that it\'s ready.',
      ),
    ).toMatchObject([{ triggerId: 'notion.page_updated', steps: ["email the customer that it's ready"] }]);
  });

  it('given "we\'d like that sent out through DocuSign", when analysed, then sending it is the duty', () => {
    expect(
      workflowsOf(
        "Before their session every client has to sign our consent form. We'd like that sent out through DocuSign but we haven't set DocuSign up yet.",
      )[0]?.capabilities,
    ).toEqual(['docusign.send_envelope']);
  });

  it('given a condition and its duty with no comma between, inside a sentence, when analysed, then the duty is a step of its own', () => {
    expect(
      workflowsOf(
        'When a client texts to book, reply with the next 3 free slots from the calendar and once they pick one put it in the cal.',
      ),
    ).toMatchObject([
      {
        triggerId: 'twilio.sms_received',
        capabilities: ['google-calendar.find_free_slot', 'twilio.send_sms', 'google-calendar.create_event'],
      },
    ]);
  });

  it('given ways in said as such, joined by "and", when analysed, then each way in starts the same duties', () => {
    expect(
      workflowsOf(
        'Enquiries come in two ways: the contact form on the website (it posts to a webhook) and straight to our email. Reply to each enquirer with the price list.',
      ),
    ).toMatchObject([{ triggerId: 'webhook.incoming_webhook' }, { triggerId: 'gmail.new_email' }]);
  });

  it('given items that "should land as" records of a product, with an aside, when analysed, then creating them is the duty', () => {
    expect(
      workflowsOf('- enquiries from the website form (it hits our webhook) should land as leads in salesforce, source = Web'),
    ).toMatchObject([{ triggerId: 'webhook.incoming_webhook', capabilities: ['salesforce.create_lead', null] }]);
  });

  it('given "when it\'s fully signed" after sending an agreement through DocuSign, when analysed, then the signed envelope starts it', () => {
    expect(
      workflowsOf(
        [
          '- once an opportunity reaches the "Contract" stage, send the client the charter agreement through docusign',
          "- when it's fully signed: save the signed PDF into the client's folder on drive, and ping #charters",
        ].join('\n'),
      )[1]?.triggerId,
    ).toBe('docusign.envelope_completed');
  });
});

describe('offline analyst: which one is meant', () => {
  it('given the old one cancelled and "the new one" made, when analysed, then the new one is of the same kind', () => {
    expect(oneNamed('create the new one', 'cancel the old calendar event')).toBe('create the new calendar event');
    expect(oneNamed('book the new one', 'cancel their old appointment')).toBe('book the new appointment');
  });

  it('given a duty before that says no old one, when analysed, then "one" is left as it is', () => {
    expect(oneNamed('offer them the next one', 'stick it in the calendar')).toBe('offer them the next one');
    expect(oneNamed('create a new one', 'read the message')).toBe('create a new one');
  });

  it('given a slot freed after a booking is cancelled, when analysed, then no free slot is looked for', () => {
    expect(
      workflowsOf(
        'When a client books, put it in the calendar. If the deposit is not paid within 48 hours, cancel the consult and free the slot.',
      )[0]?.capabilities,
    ).not.toContain('google-calendar.find_free_slot');
  });
});

describe('offline analyst: what a review of these readings found', () => {
  it('given a day written without its ordinal, or in May, when parsed, then the day and the month are kept', () => {
    expect(parseSchedule('On 15 March, email the members')?.expression).toBe('0 9 15 3 *');
    expect(parseSchedule('On June 30, email the members')?.expression).toBe('0 9 30 6 *');
    expect(parseSchedule('On the 1st of May, email the members')?.expression).toBe('0 9 1 5 *');
  });

  it("given a season's dates, a date that says what happened, or a day with no duty, when analysed, then no yearly schedule is read", () => {
    expect(workflowsOf('1 June – 31 August: every Saturday, post the market stalls in #market.')[0]?.cron).toBe('0 9 * * 6');
    expect(
      workflowsOf('On the 3rd of March we had a flood, so now we check the sheet every morning.').some((w) =>
        String(w.cron ?? '').endsWith(' 3 *'),
      ),
    ).toBe(false);
    expect(workflowsOf('On 14 February, the shop is busiest; every hour that day post a stock update in #shop.')).toMatchObject([
      { cron: '0 * * * *' },
    ]);
    expect(workflowsOf("On the 25th of December, don't send anything.").some((w) => w.triggerId)).toBe(false);
  });

  it('given a time or days that are what the duty says, not when it runs, when analysed, then the schedule keeps its own', () => {
    expect(workflowsOf('Email a summary of deliveries due before 9am the next day every evening.')[0]?.cron).toBe('0 18 * * *');
    expect(workflowsOf("Check stock levels every week, we're open Thu–Sun.")[0]?.cron).toBe('0 9 * * 1');
  });

  it('given "then" before a second event or inside a name, or a duty said with "don\'t forget", when analysed, then the start is kept', () => {
    expect(workflowsOf('If a lead books then cancels, email them a rebooking link.')[0]?.steps).toEqual([
      'email them a rebooking link',
    ]);
    expect(workflowsOf('When a deal reaches Then Contract stage, email Sam.')[0]?.steps).toEqual(['email Sam']);
    expect(workflowsOf("If a payment fails in Stripe, don't forget to email the customer.")[0]?.triggerId).toBe(
      'stripe.payment_failed',
    );
  });

  it('given "at 14 days overdue" after a chase that is not an invoice\'s, when analysed, then no invoice is read', () => {
    expect(
      workflowsOf('When a library book is 7 days overdue, email the member. At 14 days overdue, text them.').some(
        (w) => w.triggerId === 'quickbooks.invoice_overdue',
      ),
    ).toBe(false);
  });

  it('given "when they\'re hired" after a step in another product, when analysed, then the start is read on its own', () => {
    expect(
      workflowsOf("When someone applies, move them to screening in Greenhouse. When they're hired, add them to BambooHR.")[1]
        ?.triggerId,
    ).toBe('bamboohr.new_hire');
  });

  it('given a remark about how ("we\'d like that kept confidential", "should end up as resolved", "At that point, the customer calls"), when analysed, then no duty is read from it', () => {
    expect(workflowsOf("When a file lands in Drive, save it to the folder. We'd like that kept confidential.")[0]?.steps).toEqual(
      ['save it to the folder'],
    );
    expect(workflowsOf('Tickets should end up as resolved within 24 hours.').flatMap((w) => w.capabilities)).toEqual([]);
    expect(
      workflowsOf('When a customer signs up, add them to HubSpot. At that point, the customer usually calls us.'),
    ).toHaveLength(1);
  });

  it('given "a new one" after an order refunded, when analysed, then it is not read as the old one\'s kind', () => {
    expect(oneNamed('send a new one', 'refund the old order')).toBe('send a new one');
    expect(oneNamed('ship a new one', 'cancel the old order')).toBe('ship a new one');
  });
});

describe('offline analyst: why, then the duty', () => {
  it('given a statement and then ", so <duty>", when analysed, then the duty is a step', () => {
    expect(
      workflowsOf(
        "When a candidate applies in Greenhouse, email them. A lot of our pickers don't read email, so text them the interview time as well.",
      )[0]?.capabilities,
    ).toEqual(['gmail.send_email', 'twilio.send_sms']);
    expect(
      workflowsOf('For weddings, the couple must first meet Father Michael, so please find a free slot in his calendar.')[0]
        ?.capabilities,
    ).toEqual(['google-calendar.find_free_slot']);
  });

  it('given "so we can", "and so do …", or a style said so, when analysed, then no duty is read from it', () => {
    expect(workflowsOf('Orders pile up on Fridays, so we can never keep up.').flatMap((w) => w.steps)).toEqual([]);
    expect(
      workflowsOf('We have 1,400 patients, most of them over 70, so please keep every message short and plain.').flatMap(
        (w) => w.steps,
      ),
    ).toEqual([]);
    expect(
      workflowsOf(
        'When an order comes in by email, reply. Orders over £2,500 go to Marco for a yes first, and so do orders from new customers.',
      )
        .flatMap((w) => w.steps)
        .join(' '),
    ).not.toContain('do orders');
  });

  it('given "Oh and" before a schedule in a spoken note, when analysed, then the schedule starts the duty', () => {
    expect(
      workflowsOf("When a farmer books, text them. Oh and every Sunday night text me a reminder to look at the week's jobs.")[1],
    ).toMatchObject({ triggerId: 'schedule.cron', cron: '0 22 * * 0', capabilities: ['twilio.send_sms'] });
  });

  it('given work a system does itself, when analysed, then it starts nothing and is no duty', () => {
    const read = workflowsOf(
      'When a lesson is cancelled in the calendar, text the pupil. Lessons are booked through our website, which creates the calendar events itself.',
    );
    expect(read).toHaveLength(1);
    expect(read[0]?.steps).toEqual(['text the pupil']);
  });

  it("given a start date added to a hire's record after BambooHR's new hire, when analysed, then the record is updated", () => {
    expect(
      workflowsOf(
        'Once we hire someone, the office creates their record in BambooHR. When that happens, add their start date to the record.',
      )[0]?.capabilities,
    ).toEqual(['bamboohr.update_employee']);
  });
});

describe('offline analyst: what a sixteenth blind set taught', () => {
  it('given "could you" before the duty after a time, when analysed, then the asking is no part of the duty', () => {
    expect(workflowsOf('So the day before each appointment, could you text them a reminder.')).toMatchObject([
      { triggerId: 'google-calendar.event_starting', steps: ['text them a reminder'], capabilities: ['twilio.send_sms'] },
    ]);
  });

  it('given times and starts written as arrows in bullets, when analysed, then each arrow is its own workflow', () => {
    expect(
      workflowsOf(
        [
          '- new enquiry email → reply w/ brochure',
          '- 2 wks before each wedding → email the couple the final checklist',
          "- Mon 8am → email me this week's deliveries",
          "- deposits go through Stripe → when one's paid, mark the enquiry Booked in Notion",
        ].join('\n'),
      ),
    ).toMatchObject([
      { triggerId: 'gmail.new_email' },
      { triggerId: 'google-calendar.event_starting', params: { minutesBefore: 10080 } },
      { triggerId: 'schedule.cron', cron: '0 8 * * 1' },
      { triggerId: 'stripe.invoice_paid', steps: ['mark the enquiry Booked in Notion'] },
    ]);
  });

  it("given a start said last with an alternative or details after a comma, when analysed, then the alternative is the start's and the details the duty's", () => {
    expect(
      workflowsOf(
        'Text me whenever a new job comes in through the booking form on the website, name, yard, number of horses.',
      )[0],
    ).toMatchObject({ triggerId: 'webhook.incoming_webhook', capabilities: ['twilio.send_sms', null] });
    expect(
      workflowsOf('Text me as well whenever someone emails about a lame horse, or says "urgent" in the subject.')[0],
    ).toMatchObject({
      lead: 'Whenever someone emails about a lame horse, or says "urgent" in the subject',
      triggerId: 'gmail.new_email',
    });
  });

  it('given a reply to one of our texts, when analysed, then a text received starts it', () => {
    expect(workflowsOf('When I reply "yes" to one of your texts with a day, put the visit in my calendar.')[0]?.triggerId).toBe(
      'twilio.sms_received',
    );
  });

  it('given some of the work by an amount and its duty with no lead word, when analysed, then it is a condition of the work at hand', () => {
    expect(
      workflowsOf(
        'When supplier bills come in by email, record them in QuickBooks. Anything over £800 ask Tom in #brewhouse first.',
      ),
    ).toMatchObject([{ triggerId: 'gmail.new_email', capabilities: ['quickbooks.record_expense', 'slack.post_message'] }]);
    expect(
      workflowsOf('When an order comes in by email, reply. Orders over £2,500 go to Marco for a yes first.')
        .flatMap((w) => w.steps)
        .join(' '),
    ).not.toContain('go to Marco');
  });

  it('given work that comes in by email, and a condition on how far off a date is, when analysed, then the arrival starts the duties', () => {
    expect(
      workflowsOf(
        "Cancellations come in by email. Cancel the calendar event and refund their deposit through Stripe if it's more than 7 days before drop-off.",
      ),
    ).toMatchObject([{ triggerId: 'gmail.new_email', capabilities: ['google-calendar.cancel_event', 'stripe.refund_payment'] }]);
  });

  it('given "switch to texts once …", when analysed, then texting is the duty (and a texting product is needed)', () => {
    expect(
      workflowsOf('Two days before each shift, email the volunteers for now and switch to texts once we have sorted it.')[0]
        ?.capabilities,
    ).toEqual(['gmail.send_email', 'twilio.send_sms']);
  });

  it('given ", just <duty>" after a statement, when analysed, then the duty is a step', () => {
    expect(
      workflowsOf(
        'When someone emails about a lame horse, text me. Everything else by email can wait, just label it "to book".',
      )[0]?.capabilities,
    ).toEqual(['twilio.send_sms', 'gmail.label_email']);
  });
});
