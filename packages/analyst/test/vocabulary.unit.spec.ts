import {
  builtInCatalog,
  type CatalogCapability,
  capabilityVocabulary,
  triggerVocabulary,
  type Vocabulary,
} from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import { matchWorkflow } from '../src/match';
import { analyseJob, imperative, splitEventSentence } from '../src/segment';
import type { DraftWorkflow } from '../src/types';
import { catalogVocabulary, rankByVocabulary, verbObject } from '../src/vocabulary';

const top = (clause: string): string | undefined => rankByVocabulary(clause, builtInCatalog.capabilities)[0]?.id;

describe('catalog vocabulary', () => {
  it('gives every capability and trigger of the built-in catalog what a person would say for it', () => {
    for (const c of builtInCatalog.capabilities) expect(capabilityVocabulary[c.id]?.verbs.length, c.id).toBeGreaterThan(0);
    for (const t of builtInCatalog.triggers) expect(triggerVocabulary[t.id]?.objects.length, t.id).toBeGreaterThan(0);
  });
});

describe('offline analyst: matching clauses against the catalog vocabulary', () => {
  it('given a verb and an object of a capability, when ranked, then that capability comes first', () => {
    expect(top('reserve the room by adding the meeting to the room calendar')).toBe('google-calendar.create_event');
    expect(top('put the visit on the calendar')).toBe('google-calendar.create_event');
    expect(top('check which rooms are available at that time')).toBe('google-calendar.find_free_slot');
    expect(top('ping sales in slack so they know')).toBe('slack.post_message');
    expect(top('open a ticket for it')).toBe('zendesk.create_ticket');
  });

  it('given a misspelt object, when ranked, then fuzzy terms still find the capability', () => {
    expect(top('schedule a meeting in the calender')).toBe('google-calendar.create_event');
  });

  it('given a product named in the clause, when ranked, then only that product’s capabilities remain', () => {
    const hits = rankByVocabulary('file a bug in GitHub', builtInCatalog.capabilities);
    expect(hits.map((h) => h.providerId)).toEqual(['github']);
  });

  it('given a clause with no verb and object of the catalog, when ranked, then nothing is claimed', () => {
    expect(rankByVocabulary('think about the weather', builtInCatalog.capabilities)).toEqual([]);
    expect(rankByVocabulary('handle IT requests', builtInCatalog.capabilities)).toEqual([]);
  });

  it('given a capability added to the catalog with its vocabulary, when a step says it, then it is matched without touching the analyst', () => {
    const payroll: CatalogCapability = {
      id: 'gusto.run_payroll',
      providerId: 'gusto',
      name: 'run_payroll',
      description: 'Run a payroll for a pay period.',
      risk: 'high',
      inputSchema: { type: 'object', properties: {}, required: [], additionalProperties: false },
      outputSchema: { type: 'object', properties: {}, required: [], additionalProperties: false },
    };
    const words: Vocabulary = {
      verbs: ['run', 'process', 'pay'],
      objects: ['payroll', 'salary', 'wage'],
      aliases: ['pay the team'],
    };
    const vocabularyOf = (id: string): Vocabulary | undefined => (id === payroll.id ? words : catalogVocabulary(id));
    const hits = rankByVocabulary(
      'process the salaries for everyone',
      [...builtInCatalog.capabilities, payroll],
      {},
      vocabularyOf,
    );
    expect(hits[0]?.id).toBe('gusto.run_payroll');
  });

  it('reads the verb of a clause in its base form, also from a third-person duty', () => {
    expect(verbObject('creates their onboarding page in Notion').verb).toBe('create');
    expect(verbObject('reserve the room').verb).toBe('reserve');
  });
});

describe('offline analyst: duties said of someone', () => {
  it('turns a subject and modal, or a third-person verb, into the imperative', () => {
    expect(imperative('the bot must read it')).toBe('read it');
    expect(imperative('creates a page in Notion')).toBe('create a page in Notion');
    expect(imperative('you add them to hubspot')).toBe('add them to hubspot');
  });

  it('given a sentence that says how work arrives and then what to do, then the event and the duties are told apart', () => {
    const split = splitEventSentence(
      'Clients often email us asking to visit; the assistant should find a time that works and put the visit on the calendar',
    );
    expect(split?.lead).toBe('Clients often email us asking to visit');
    expect(split?.body).toMatch(/^the assistant should find a time/);
  });

  it('given duties in the third person, when analysed and matched, then each becomes a step with a capability', () => {
    const [w] = analyseJob(
      'Every time a new hire shows up in BambooHR, creates their onboarding page in Notion and books a 1:1 with their manager.',
    ).workflows;
    const m = matchWorkflow(w as DraftWorkflow, {
      capabilities: builtInCatalog.capabilities,
      triggers: builtInCatalog.triggers,
      connected: ['notion', 'google-calendar', 'bamboohr'],
    });
    expect(m.trigger.triggerId).toBe('bamboohr.new_hire');
    expect(m.steps.map((s) => s.capabilityId)).toEqual(['notion.create_page', 'google-calendar.create_event']);
  });
});

describe('offline analyst: products outside the catalog', () => {
  it('given a step in a product the catalog lacks, when matched, then it names that product and claims no look-alike tool', () => {
    const [w] = analyseJob('When a new project is created in Asana, set up a channel for it in Microsoft Teams.').workflows;
    const m = matchWorkflow(w as DraftWorkflow, {
      capabilities: builtInCatalog.capabilities,
      triggers: builtInCatalog.triggers,
      connected: ['slack', 'gmail'],
    });
    expect(m.trigger).toMatchObject({ triggerId: null, providerId: 'asana' });
    expect(m.steps.map((s) => [s.capabilityId, s.providerId])).toEqual([[null, 'microsoft-teams']]);
  });
});
