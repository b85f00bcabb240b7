import { describe, expect, it } from 'vitest';
import { titleOf } from '../src/creation/title';

describe('the title a job description opens with (titleOf)', () => {
  it.each([
    ['Refunds specialist: when a Zendesk ticket asks for a refund, refund it.', 'Refunds specialist'],
    ['Sales follow-up: when a deal closes in HubSpot, email the customer.', 'Sales follow-up'],
    ['Follow-up assistant - when a lead comes in, email them.', 'Follow-up assistant'],
    ['Night desk — answer the emails that come in after 6pm.', 'Night desk'],
    ['Email triage -- sort the inbox every morning and post a summary.', 'Email triage'],
    ['Email triage-- sort the inbox every morning.', 'Email triage'],
    ['Support bot- when a ticket comes in, reply.', 'Support bot'],
    ['Recruiting coordinator -when someone applies, email them.', 'Recruiting coordinator'],
    ['Accounts Receivable Clerk\nWe are a 40-person agency.', 'Accounts Receivable Clerk'],
  ])('given "%s", when named, then "%s"', (text, title) => {
    expect(titleOf(text)).toBe(title);
  });

  it.each([
    'when a deal closes in HubSpot, email the customer.',
    'I need someone who answers our support emails and posts a summary every Friday in Slack so that the whole team knows.',
  ])('given "%s", which opens with no title, then none', (text) => {
    expect(titleOf(text)).toBeUndefined();
  });
});
