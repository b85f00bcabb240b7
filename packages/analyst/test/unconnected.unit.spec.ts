import { describe, expect, it } from 'vitest';
import { analyseJob } from '../src';
import { saidUnconnected } from '../src/unconnected';

const ids = (sentence: string) => saidUnconnected(sentence).map((p) => p.providerId);

describe('offline analyst: a product the writer says is not connected', () => {
  it.each([
    ["Deposits are paid through Square, which isn't connected to anything yet", 'square'],
    ["tickets are sold through Eventbrite, which hireloop isn't connected to", 'eventbrite'],
    ["We haven't connected QuickBooks to this yet, Dave's sorting that", 'quickbooks'],
    ['I am not sure QuickBooks is hooked up to this', 'quickbooks'],
    ["We do our books in QuickBooks but I don't think it's hooked up to anything", 'quickbooks'],
    ['the in-app chat is intercom, not hooked up to anything yet', 'intercom'],
    ['Nothing of ours is linked to Acuity yet.', 'acuity'],
    ["Room bookings live in Nexudus, which you can't see.", 'nexudus'],
    ['The School will connect its DocuSign account next month', 'docusign'],
    ["we're going to connect BambooHR in March", 'bamboohr'],
  ])('given "%s", when read, then it names %s', (sentence, id) => {
    expect(ids(sentence)).toEqual([id]);
  });

  it.each([
    "Don't connect to Stripe",
    'please never hook up Xero',
    'Post it in Slack and tag the linked ticket',
    "never reply in Slack to a thread that isn't linked",
    "In Zendesk, make sure the customer can't see the internal note",
    "Make sure it's linked to Sarah's account",
    'I will connect with the client in Slack',
    'Refund it in Stripe and email the customer',
  ])(
    'given "%s", when read, then it names none: an order, a thing described, a person, or nothing said of a connection',
    (sentence) => {
      expect(ids(sentence)).toEqual([]);
    },
  );

  it('given the sentence that says so apart from the work, when analysed, then the workflow that speaks of the same thing carries it', () => {
    const { workflows } = analyseJob(
      [
        'IF a booking request comes through the website form THEN email the client two free slots from the calendar.',
        'IF no deposit has come in 48 hours after the hold was made THEN cancel the hold in the calendar.',
        "Deposits are paid through Square, which isn't connected to anything yet.",
      ].join('\n'),
    );
    const carrying = workflows.filter((w) => w.unconnected?.some((u) => u.providerId === 'square'));
    expect(carrying).toHaveLength(1);
    expect(carrying[0]?.responsibility).toContain('deposit');
    expect(carrying[0]?.unconnected?.[0]?.excerpt).toContain("isn't connected");
  });

  it('given a workflow that names the product, when analysed, then that workflow carries it', () => {
    const { workflows } = analyseJob(
      "Every Monday at 9am, post the week in #ops. When we hire someone, add them to BambooHR (we haven't connected BambooHR yet).",
    );
    expect(workflows.map((w) => w.unconnected?.map((u) => u.providerId) ?? [])).toEqual([[], ['bamboohr']]);
  });

  it('given no such sentence, when analysed, then no workflow carries a product', () => {
    const { workflows } = analyseJob(
      'When a payment fails in Stripe, email the customer. Every Friday, post a summary in #finance.',
    );
    expect(workflows.every((w) => w.unconnected === undefined)).toBe(true);
  });
});
