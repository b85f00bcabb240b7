import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import {
  BuiltInCatalog,
  builtInCatalog,
  CatalogCapability,
  CatalogTrigger,
  DEV_ORG,
  devOrgConnections,
  ObjectJsonSchema,
} from '../src/catalog';
import { section8a, section8aAcme, section8aCapabilityIds, section8aTriggerIds } from './section-8a';

const ids = (kind: 'capabilities' | 'triggers'): string[] =>
  [...(kind === 'capabilities' ? section8aCapabilityIds : section8aTriggerIds)].sort();

const trigger = (id: string) => {
  const t = builtInCatalog.triggers.find((x) => x.id === id);
  if (!t) throw new Error(`no trigger ${id}`);
  return t;
};

describe('built-in Connect Hub catalog', () => {
  it('holds exactly the providers, capabilities and triggers of the §8a table', () => {
    expect(builtInCatalog.providers.map((p) => p.id).sort()).toEqual(Object.keys(section8a).sort());
    expect(builtInCatalog.capabilities.map((c) => c.id).sort()).toEqual(ids('capabilities'));
    expect(builtInCatalog.triggers.map((t) => t.id).sort()).toEqual(ids('triggers'));
  });

  it('validates against its own schemas, with no duplicate ids', () => {
    expect(Value.Check(BuiltInCatalog, builtInCatalog)).toBe(true);
    for (const c of builtInCatalog.capabilities) expect(Value.Check(CatalogCapability, c), c.id).toBe(true);
    for (const t of builtInCatalog.triggers) expect(Value.Check(CatalogTrigger, t), t.id).toBe(true);
    const all = [...builtInCatalog.capabilities, ...builtInCatalog.triggers].map((x) => x.id);
    expect(new Set(all).size).toBe(all.length);
  });

  it('names every entry <provider>.<name> of a listed provider', () => {
    const providers = new Set(builtInCatalog.providers.map((p) => p.id));
    for (const x of [...builtInCatalog.capabilities, ...builtInCatalog.triggers]) {
      expect(x.id).toBe(`${x.providerId}.${x.name}`);
      expect(providers.has(x.providerId)).toBe(true);
    }
  });

  it('gives every capability and trigger an object schema whose properties are described and whose required ones exist', () => {
    const schemas = [
      ...builtInCatalog.capabilities.map((c) => [c.id, c.inputSchema] as const),
      ...builtInCatalog.triggers.map((t) => [t.id, t.paramsSchema] as const),
    ];
    for (const [id, schema] of schemas) {
      expect(Value.Check(ObjectJsonSchema, schema), id).toBe(true);
      expect(schema.type).toBe('object');
      for (const [name, prop] of Object.entries(schema.properties))
        expect(prop.description.length, `${id}.${name}`).toBeGreaterThan(3);
      for (const r of schema.required) expect(Object.keys(schema.properties), id).toContain(r);
    }
    for (const c of builtInCatalog.capabilities) {
      expect(c.inputSchema.required.length, c.id).toBeGreaterThan(0);
      expect(c.description).not.toMatch(/\n/);
    }
  });

  it('gives triggers meaningful parameters', () => {
    expect(trigger('hubspot.deal_stage_changed').paramsSchema.required).toEqual(['stage']);
    expect(trigger('salesforce.opportunity_stage_changed').paramsSchema.required).toEqual(['stage']);
    expect(Object.keys(trigger('gmail.new_email').paramsSchema.properties).sort()).toEqual(['from', 'label', 'subjectContains']);
    expect(trigger('gmail.new_email').paramsSchema.required).toEqual([]);
    expect(Object.keys(trigger('slack.mention').paramsSchema.properties)).toContain('channel');
    expect(Object.keys(trigger('slack.new_message').paramsSchema.properties)).toContain('channel');
    const cron = trigger('schedule.cron').paramsSchema;
    expect(cron.required).toEqual(['expression']);
    expect(Object.keys(cron.properties).sort()).toEqual(['expression', 'timezone']);
    expect(Object.keys(trigger('webhook.incoming_webhook').paramsSchema.properties)).toEqual(['path']);
    expect(Object.keys(trigger('jira.issue_transitioned').paramsSchema.properties)).toContain('toStatus');
  });

  it('marks as high risk what reaches customers or moves money or code', () => {
    const risk = (id: string) => builtInCatalog.capabilities.find((c) => c.id === id)?.risk;
    for (const id of [
      'gmail.send_email',
      'twilio.send_sms',
      'zendesk.reply_ticket',
      'stripe.refund_payment',
      'stripe.create_invoice',
      'quickbooks.create_invoice',
      'github.merge_pull_request',
      'docusign.send_envelope',
    ])
      expect(risk(id), id).toBe('high');
    for (const id of [
      'slack.post_message',
      'hubspot.create_task',
      'jira.create_issue',
      'notion.create_page',
      'google-calendar.find_free_slot',
    ])
      expect(risk(id), id).toBe('low');
  });

  it('connects the dev org to the providers §8a lists', () => {
    expect(DEV_ORG).toBe('acme');
    expect([...devOrgConnections].sort()).toEqual([...section8aAcme].sort());
    const providers = new Set(builtInCatalog.providers.map((p) => p.id));
    for (const p of devOrgConnections) expect(providers.has(p)).toBe(true);
  });
});
