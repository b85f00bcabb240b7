import { builtInCatalog, devOrgConnections } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import { offlineSpec, unknownProductsIn } from '../src';
import { workflowsOf } from './workflows-of';

/** The products a description relies on that the dev org has not connected. */
const missing = (line: string): string[] =>
  offlineSpec(`Office helper\n${line}`, builtInCatalog, devOrgConnections)
    .gaps.filter((g) => g.category === 'missing_integration')
    .map((g) => g.providerId ?? '');

describe('offline analyst: a product no list knows, named the ways people name their own systems', () => {
  it('given "in our Clio" (a name after "our"), when analysed, then Clio is a missing integration', () => {
    expect(missing('When a form comes in, run the name against the conflicts list in our Clio.')).toEqual(['clio']);
  });

  it('given "our Ekos keg register" (a name, then what it keeps), when analysed, then Ekos is missing', () => {
    expect(missing('When a deal is won in HubSpot, mark the keg as sold in our Ekos keg register.')).toEqual(['ekos']);
  });

  it('given a brand with a capital inside ("in ezyVet"), when analysed, then it is missing', () => {
    expect(missing("When lab results arrive by email, attach them to the patient's record in ezyVet.")).toEqual(['ezyvet']);
  });

  it('given the kind of system said beside the name ("Arbor (our MIS)", "our practice system (Dentally)", "our Dentrix system"), when analysed, then that name is missing', () => {
    expect(missing('Every morning at 9, check Arbor (our MIS) for absent children and email their parents.')).toEqual(['arbor']);
    expect(missing('When a patient books, update their chart in our practice system (Dentally).')).toEqual(['dentally']);
    expect(missing('When a patient books, update their chart in our Dentrix system.')).toEqual(['dentrix']);
  });

  it('given an arrival from a shop the writer calls theirs ("from our WooCommerce shop"), when analysed, then the shop is missing', () => {
    expect(missing('When a new order comes in from our WooCommerce shop, post it in #orders.')).toEqual(['woocommerce']);
  });

  it('given a thing kept in a product whose name is shaped as a brand ("add each booking to ServiceM8", "export the order to QuickFile"), when analysed, then that product is missing', () => {
    expect(missing('When someone emails asking for a callout, add each booking to ServiceM8 as a new job.')).toEqual([
      'servicem8',
    ]);
    expect(missing('When a HubSpot deal is won, export the order to QuickFile.')).toEqual(['quickfile']);
  });

  it('given the org\'s own product with a word after it ("in our Clio account"), when analysed, then it is missing; but not a thing of the org ("our Platinum tier", "our Deliveries album")', () => {
    expect(missing('When a form comes in, log it in our Clio account.')).toEqual(['clio']);
    expect(missing('When a guest upgrades, move them to our Platinum tier.')).toEqual([]);
    expect(missing('When a photo is sent by email, save it in our Deliveries album.')).toEqual([]);
  });

  it('given things of the org kept or sent "to" them ("upload the photos to our Gallery", "add them to our Spring Campaign", "to Harbour House\'s calendar", "email the details to our Camden store", "put them on our Waiting List"), when analysed, then nothing is missing', () => {
    for (const line of [
      'When a form comes in, upload the photos to our Gallery.',
      'When a form comes in, add them to our Spring Campaign.',
      "When a form comes in, add each booking to Harbour House's calendar.",
      'When a form comes in, email the details to our Camden store.',
      'When a form comes in, put them on our Waiting List.',
      'When someone books, update the rota in our Rota.',
    ])
      expect(missing(line)).toEqual([]);
  });

  it('given a team of the org where a product could go ("add them to Marketing", "log it in Finance"), when analysed, then nothing is missing', () => {
    expect(missing('When a form comes in, add them to Marketing.')).toEqual([]);
    expect(missing('When a form comes in, log it in Finance.')).toEqual([]);
  });

  it('given a name that names a calendar, an inbox or an office of the org ("our Intake calendar", "our Support inbox", "our London office"), when analysed, then nothing is missing', () => {
    expect(missing('When a form comes in, find a free slot in our Intake calendar.')).toEqual([]);
    expect(missing('When someone emails, reply from our Support inbox.')).toEqual([]);
    expect(missing('When a ticket comes in from our Leeds office, post it in #uk.')).toEqual([]);
  });

  it('given a name that is a person, a link, a class or a device ("with our Leiterin", "our Google review link", "our Grade 3s", "our iPhone"), when analysed, then no product is named', () => {
    expect(unknownProductsIn('find a 30-minute slot with our Leiterin, Frau Okafor, next week')).toEqual([]);
    expect(unknownProductsIn('email the group a thank-you with our Google review link')).toEqual([]);
    expect(unknownProductsIn('they teach a class to our Grade 3s')).toEqual([]);
    expect(unknownProductsIn('when a message comes in on our iPhone')).toEqual([]);
  });

  it('given a system said to have an API ("the till system (Lightspeed has an API …)"), when analysed, then it is reached over HTTP, not missing', () => {
    expect(
      unknownProductsIn('grab the sales export from the till system (Lightspeed has an API, I will give you the key)'),
    ).toEqual([]);
  });

  it('given a product named inside what a message says ("reminding everyone to fill in their Harvest timesheets"), when analysed, then the message is posted and nothing is missing', () => {
    expect(missing('Every Friday at 3pm, post in #general reminding everyone to fill in their Harvest timesheets.')).toEqual([]);
    expect(
      workflowsOf(
        'Office helper\nEvery Friday at 3pm, post in #general reminding everyone to fill in their Harvest timesheets.',
      )[0]?.capabilities,
    ).toEqual(['slack.post_message']);
  });
});

describe('offline analyst: a day said first, or said of the thing made', () => {
  it('given "On Monday, send …" (one weekday, then an order), when analysed, then it runs every Monday', () => {
    expect(workflowsOf('Office helper\nOn Monday, send the rota reminder email to the team.')[0]).toMatchObject({
      cron: '0 9 * * 1',
      capabilities: ['gmail.send_email'],
    });
  });

  it('given "On Friday afternoon, post …", when analysed, then it runs every Friday afternoon', () => {
    expect(
      workflowsOf("Office helper\nOn Friday afternoon, post the week's closed Zendesk tickets in #support.")[0],
    ).toMatchObject({
      cron: '0 14 * * 5',
      capabilities: ['slack.post_message'],
    });
  });

  it('given a day the sentence only tells of ("On Monday, the new hire meets the team"), when analysed, then no schedule starts', () => {
    expect(workflowsOf('Office helper\nOn Monday, the new hire meets the team.').map((w) => w.cron)).not.toContain('0 9 * * 1');
  });

  it('given days of the month listed ("On the 1st and 15th, …", "… on the 1st and the 15th", "Every 1st and 15th …"), when analysed, then it runs on both days each month', () => {
    for (const line of [
      'On the 1st and 15th, send the payroll reminder email to finance.',
      'Send the payroll reminder email to finance on the 1st and the 15th.',
      'Every 1st and 15th send the payroll reminder email to finance.',
    ])
      expect(workflowsOf(`Office helper\n${line}`)[0]).toMatchObject({
        cron: '0 9 1,15 * *',
        capabilities: ['gmail.send_email'],
      });
  });

  it('given one day of the month said first ("On the 1st, send …"), when analysed, then it runs on that day each month', () => {
    expect(workflowsOf('Office helper\nOn the 1st, send the rent reminder email to the tenants.')[0]).toMatchObject({
      cron: '0 9 1 * *',
      capabilities: ['gmail.send_email'],
    });
  });

  it('given a weekday said of the thing made ("a Monday list of …", "a Friday recap"), when analysed, then it is made every such day', () => {
    expect(workflowsOf('Office helper\nI want a Monday list of the open Jira bugs in #eng.')[0]).toMatchObject({
      cron: '0 9 * * 1',
      capabilities: ['slack.post_message'],
    });
    expect(workflowsOf('Office helper\nPost a Friday recap of closed Zendesk tickets in #support.')[0]?.cron).toBe('0 9 * * 5');
  });

  it('given a weekday said of a meeting ("the Monday meeting"), when analysed, then no schedule starts', () => {
    expect(
      workflowsOf('Office helper\nPrepare the agenda for the Monday meeting and email it to the team.').map((w) => w.cron),
    ).toEqual([undefined]);
  });

  it('given a free slot named with no verb ("first free 1-hour slot in the Workshop calendar"), when analysed, then a free slot is found, not an event cancelled', () => {
    const [workflow] = workflowsOf(
      'Office helper\nWhen a customer emails asking for a repair: first free 1-hour slot in the Workshop calendar.',
    );
    expect(workflow?.capabilities).toContain('google-calendar.find_free_slot');
    expect(workflow?.capabilities).not.toContain('google-calendar.cancel_event');
  });
});
