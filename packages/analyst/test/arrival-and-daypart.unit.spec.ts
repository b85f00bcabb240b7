import { builtInCatalog, devOrgConnections } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import { analyseJob, type Catalog, matchWorkflow, parseSchedule } from '../src';

const catalog = (connected: readonly string[] = devOrgConnections): Catalog => ({
  capabilities: builtInCatalog.capabilities,
  triggers: builtInCatalog.triggers,
  connected: [...connected],
});

/** The trigger of the first workflow of a description, and whether the description has one at all. */
const triggerOf = (text: string, connected: readonly string[] = devOrgConnections) => {
  const workflow = analyseJob(text).workflows[0];
  if (!workflow) return null;
  return matchWorkflow(workflow, catalog(connected)).trigger;
};

describe('offline analyst: work that arrives by email starts on a new email', () => {
  const arrivals = [
    'When a purchase order arrives by email, add a row to the orders sheet.',
    'A supplier invoice lands in the billing inbox; log it in QuickBooks.',
    'If a resume lands in the careers mailbox, create a candidate record in Greenhouse.',
    'Whenever a booking request comes in by email, put it on the calendar.',
    'When we get an email about a refund, open a Zendesk ticket.',
    'Once a complaint comes in via e-mail, notify the support lead on Slack.',
    'Every time a signed quote reaches the sales inbox, update the deal in HubSpot.',
    'When a warranty claim shows up in our service mailbox, create a Jira issue for the repair team.',
    'As soon as a timesheet is emailed to us, add it to the payroll sheet.',
    'When a press enquiry hits the shared inbox, tell the comms team in #press.',
  ];
  it('given arrival phrased by email or by an inbox, when matched, then the trigger is gmail.new_email', () => {
    for (const text of arrivals) expect(triggerOf(text)?.triggerId, text).toBe('gmail.new_email');
  });

  it('given people, in the plural, who email someone of ours, when analysed, then that sentence is the start on a new email', () => {
    const said = [
      'Tenants email the front desk when something breaks. Create a Jira issue for each repair.',
      'Suppliers email the warehouse when a delivery is late. Post the delay in #ops.',
      'Landlords email us when a lease is renewed. Add a row to the leases sheet.',
    ];
    for (const text of said) expect(triggerOf(text)?.triggerId, text).toBe('gmail.new_email');
  });

  it('given an org without gmail, when an arrival by email is matched, then the start still names gmail, to be connected', () => {
    const withoutGmail = devOrgConnections.filter((p) => p !== 'gmail');
    for (const text of arrivals.slice(0, 3)) expect(triggerOf(text, withoutGmail)?.providerId, text).toBe('gmail');
  });

  it('given sentences that only send email or mention an inbox as an action, when analysed, then no email trigger is found', () => {
    const actions = [
      'Reply by email to the customer with the tracking link.',
      'Email the client a copy of the invoice.',
      'Send the finance team an email with the totals.',
      'Search the inbox for the signed contract and save it to Google Drive.',
    ];
    for (const text of actions) expect(triggerOf(text)?.triggerId ?? null, text).toBeNull();
  });
});

describe('offline analyst: schedules said with a part of the day', () => {
  const cron = (text: string) => {
    const t = triggerOf(text);
    return t?.triggerId === 'schedule.cron' ? t.params.expression : null;
  };
  it('given a recurring part of the day, when matched, then the cron uses morning 9, afternoon 14, evening 18, night 22', () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ['Friday afternoons, post a summary of open tickets to #support.', '0 14 * * 5'],
      ["Weekday mornings, send the team a list of today's meetings on Slack.", '0 9 * * 1-5'],
      ['Every evening, back up the orders sheet to Google Drive.', '0 18 * * *'],
      ['On Monday mornings, email the manager the pipeline report.', '0 9 * * 1'],
      ['Each night, export new HubSpot contacts to the leads sheet.', '0 22 * * *'],
      ['Sunday evenings, remind the team in #general about the week ahead.', '0 18 * * 0'],
      ['Tuesday and Thursday afternoons, check the inbox for unanswered emails.', '0 14 * * 2,4'],
      ['Saturday mornings, create a Jira issue to review the backups.', '0 9 * * 6'],
      ['On weekend nights, post the on-call rota in #ops.', '0 22 * * 0,6'],
    ];
    for (const [text, expression] of cases) expect(cron(text), text).toBe(expression);
  });

  it('given a part of the day in the generic parser, when parsed, then the hour follows the part of the day', () => {
    expect(parseSchedule('wednesday afternoons')?.expression).toBe('0 14 * * 3');
    expect(parseSchedule('on weekday evenings')?.expression).toBe('0 18 * * 1-5');
    expect(parseSchedule('every night')?.expression).toBe('0 22 * * *');
  });

  it('given a morning or afternoon named once without a recurrence, when analysed, then there is no schedule', () => {
    const once = [
      'Send the morning report to Ana.',
      'In the morning meeting, the team discusses the plan.',
      'Email the afternoon shift roster to the store manager.',
      'On Monday morning, the new hire meets the team.',
    ];
    for (const text of once) expect(triggerOf(text)?.triggerId ?? null, text).not.toBe('schedule.cron');
  });
});
