import { builtInCatalog, devOrgConnections } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import { OfflineAnalyst } from '../src/offline';
import { productSubject, receives } from '../src/segment';
import { providersIn, sentences } from '../src/text';
import type { Catalog } from '../src/types';

// Products said in lower case ("post it in slack") or as the sentence's subject ("Jira tickets tagged
// urgent should be …") are recognised — a catalog product as its provider, another one on the
// missing-integration path — and ordinary words are not taken for products.

const catalog: Catalog = {
  capabilities: builtInCatalog.capabilities,
  triggers: builtInCatalog.triggers,
  connected: [...devOrgConnections],
};
const analyst = new OfflineAnalyst();
const matched = async (jd: string) => {
  const { workflows } = await analyst.analyse(jd);
  return Promise.all(workflows.map((wf) => analyst.matchCapabilities(wf, catalog)));
};

describe('products in lower case', () => {
  it('given "post it in slack", then slack is the product and the step posts there', async () => {
    expect(providersIn('post it in slack').map((p) => p.providerId)).toEqual(['slack']);
    const [m] = await matched('when the contact form on the website is submitted, post it in slack.');
    expect(m?.steps.map((s) => s.capabilityId)).toEqual(['slack.post_message']);
  });

  it('given a writer who starts sentences in lower case, then each sentence is its own', () => {
    const said = sentences('we run a course. whenever a student emails us, log it in notion. every sunday email the instructor.');
    expect(said.map((s) => s.text)).toEqual([
      'we run a course',
      'whenever a student emails us, log it in notion',
      'every sunday email the instructor',
    ]);
  });

  it.each(['put it in the shared folder', 'send it via email', 'hold the meeting in the morning', 'post it in the channel'])(
    'given "%s", then no product is named',
    (text) => {
      expect(providersIn(text)).toEqual([]);
    },
  );
});

describe('products as the subject', () => {
  it('given "Jira tickets tagged urgent should be announced in #eng-oncall on Slack", then a Jira start and a Slack step', async () => {
    const [m] = await matched('Jira tickets tagged urgent should be announced in #eng-oncall on Slack.');
    expect(m?.trigger.triggerId).toBe('jira.issue_created');
    expect(m?.steps.map((s) => s.capabilityId)).toEqual(['slack.post_message']);
  });

  it('given "jira tickets should be posted in slack", then the same in lower case', async () => {
    const [m] = await matched('jira tickets should be posted in slack.');
    expect(m?.trigger.triggerId).toBe('jira.issue_created');
    expect(m?.steps.map((s) => s.capabilityId)).toEqual(['slack.post_message']);
  });

  it('given a product outside the catalog as the subject, then its start is that product (the missing-integration path), and each order logged is a new page', async () => {
    const [m] = await matched('Shopify orders should be logged in Notion.');
    expect(m?.trigger.triggerId).toBeNull();
    expect(m?.trigger.providerId).toBe('shopify');
    expect(m?.steps.map((s) => s.capabilityId)).toEqual(['notion.create_page']);
  });

  it('given items that get something ("Jira issues that move to Done get a comment"), then the items are the event', () => {
    expect(productSubject('Jira issues that move to Done get a comment thanking the reporter')).toEqual({
      lead: 'Jira issues that move to Done',
      body: 'comment on them thanking the reporter',
    });
  });

  it.each([
    'New hires should be welcomed in #general',
    'Our recruiters should be told in #hiring',
    'The team should be notified in #ops',
    'Meetings should be booked on the calendar',
  ])('given "%s", then no product is the subject', (text) => {
    expect(productSubject(text)).toBeNull();
  });

  it('given a person who gets something, then it is sent to them; items that get something are not a person', () => {
    expect(receives('the engineer on call should get an email with the link')).toBe('email the engineer on call with the link');
    expect(receives('every new Zendesk ticket gets a reply')).toBeNull();
  });
});
