import { describe, expect, it } from 'vitest';
import { workflowsOf } from './workflows-of';

describe('offline analyst: work said to want doing', () => {
  it('given "they need adding to X and inviting to Y", when analysed, then both are duties, each with its object', () => {
    expect(
      workflowsOf(
        'When we hire someone in Greenhouse, they need adding to BambooHR for payroll and inviting to the #crew channel on Slack.',
      )[0],
    ).toMatchObject({
      steps: ['add them to BambooHR for payroll', 'invite them to the #crew channel on Slack'],
      capabilities: ['bamboohr.create_employee', 'slack.invite_user'],
    });
  });

  it('given "overdue invoices need chasing" with a schedule, when analysed, then the schedule runs the chase', () => {
    expect(workflowsOf('We invoice from QuickBooks. Overdue invoices need chasing every Monday by email.')).toMatchObject([
      { cron: '0 9 * * 1', steps: ['chase overdue invoices by email'], capabilities: ['gmail.send_email'] },
    ]);
  });

  it('given "it needs logging in Notion", when analysed, then "in" stays a preposition, not a particle of the verb', () => {
    expect(workflowsOf('When a deal closes in HubSpot, it needs logging in Notion.')[0]?.steps).toEqual(['log it in Notion']);
  });
});

describe('offline analyst: a message wished received by people named as a kind', () => {
  it('given "we\'d also like volunteers to get a text the evening before their shift", when analysed, then a text goes before each shift', () => {
    expect(
      workflowsOf(
        "We run a food bank. We'd also like volunteers to get a text the evening before their shift, as a lot of them don't check email.",
      ),
    ).toMatchObject([
      { triggerId: 'google-calendar.event_starting', steps: ['send volunteers a text'], capabilities: ['twilio.send_sms'] },
    ]);
  });

  it('given a wish of something that is no message, when analysed, then it is no text', () => {
    expect(
      workflowsOf("We run a food bank. We'd like volunteers to get a parking permit the evening before their shift.").flatMap(
        (w) => w.capabilities,
      ),
    ).not.toContain('twilio.send_sms');
  });
});

describe('offline analyst: a question and answer that say no case', () => {
  it('given "Q: What about reminders?" and its answer, when analysed, then the answer is read without its "A:"', () => {
    const faq = [
      'Q: What about lesson reminders?',
      "A: Learners should get a text 2 hours before each lesson (lessons are in the instructors' calendars).",
    ].join('\n');
    expect(workflowsOf(faq)).toMatchObject([
      { triggerId: 'google-calendar.event_starting', params: { minutesBefore: 120 }, capabilities: ['twilio.send_sms'] },
    ]);
  });
});

describe('offline analyst: a time of day said first, or in words', () => {
  it.each([
    ['We run a gym. At 9am every Monday, post the rota in #ops.', '0 9 * * 1', 'post the rota in #ops'],
    [
      'We run a gym. At 7:30pm every evening, text each member with a class booked.',
      '30 19 * * *',
      'text each member with a class booked',
    ],
    ['We run a gym. Every evening at half past seven, text each member.', '30 19 * * *', 'text each member'],
    ['We run a gym. Noon on Fridays: email the trainers the timetable.', '0 12 * * 5', 'email the trainers the timetable'],
    ['We run a bakery. Quarter to nine, Monday to Friday: email Dom the drop list.', '45 8 * * 1-5', 'email Dom the drop list'],
    ['We run a bakery. Every Friday at about four, email Dom the week.', '0 16 * * 5', 'email Dom the week'],
  ])('given "%s", when analysed, then it runs on %s', (text, cron, step) => {
    expect(workflowsOf(text)).toMatchObject([{ cron, steps: [step] }]);
  });

  it('given a number that is no time of day after "at", when analysed, then nothing is read as a clock', () => {
    expect(workflowsOf('Every Monday at 9am, email the team about the jobs at one of our sites.')).toMatchObject([
      { cron: '0 9 * * 1', steps: ['email the team about the jobs at one of our sites'] },
    ]);
  });
});

describe('offline analyst: an item with a time of its own, said bare', () => {
  it('given "a week before drop-off", when analysed, then it is a week before the calendar item', () => {
    expect(
      workflowsOf('Drop-offs are in the Kennels calendar. Owners need emailing a week before drop-off with the checklist.'),
    ).toMatchObject([{ triggerId: 'google-calendar.event_starting', params: { minutesBefore: 10080 }, steps: ['email owners'] }]);
  });

  it('given "more than 7 days before drop-off" in a condition, when analysed, then it is how far ahead, no start', () => {
    expect(
      workflowsOf(
        "Cancellations come in by email. Refund their deposit through Stripe if it's more than 7 days before drop-off.",
      ).map((w) => w.triggerId),
    ).toEqual(['gmail.new_email']);
  });
});

describe('offline analyst: a duty said done to its object', () => {
  it('given "it gets saved in the folder", when analysed, then it saves it there', () => {
    expect(
      workflowsOf("When an owner emails a photo of the card, it gets saved in that pet's folder on the Drive.")[0],
    ).toMatchObject({ steps: ["save it in that pet's folder on the Drive"], capabilities: ['google-drive.upload_file'] });
  });

  it('given someone named doing it, when analysed, then it is not the employee’s duty', () => {
    expect(workflowsOf('When an order comes in, it gets picked by the warehouse team.')[0]?.steps).not.toContain(
      'pick it by the warehouse team',
    );
  });

  it('given "every café … gets an invoice" in a business on QuickBooks, when analysed, then it invoices them in QuickBooks', () => {
    const text =
      "Noon on Fridays: every café that ordered that week gets an invoice for the week. We're on QuickBooks but it isn't linked to you yet.";
    expect(workflowsOf(text)).toMatchObject([{ cron: '0 12 * * 5', capabilities: ['quickbooks.create_invoice'] }]);
  });

  it('given a step that names its product, when analysed, then the product said elsewhere does not replace it', () => {
    const text = "When a sample form comes in, create a Jira issue in the SEQ project. GitHub isn't hooked up to this yet.";
    expect(workflowsOf(text)[0]?.capabilities).toEqual(['jira.create_issue']);
  });
});
