import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalogCapability, CatalogTrigger } from '@hireloop/schemas';
import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ambiguities } from './findings';
import { matchWorkflow } from './match';
import { analyseJob } from './segment';
import type { Catalog } from './types';

// Scoring a creation against a golden case, as /work/shared/golden/README.md defines it.

const Ids = Type.Array(Type.String({ maxLength: 128 }), { maxItems: 200 });

export const GoldenCase = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 128 }),
  org: Type.Object({ connected: Ids }),
  jobDescription: Type.String({ minLength: 1, maxLength: 20_000 }),
  expect: Type.Object({
    capabilities: Ids,
    alsoAcceptable: Ids,
    triggers: Ids,
    missingIntegrations: Ids,
    gapCategories: Ids,
    minWorkflows: Type.Integer({ minimum: 0 }),
    maxWorkflows: Type.Integer({ minimum: 0 }),
  }),
});
export type GoldenCase = Static<typeof GoldenCase>;

/** The part of an EmployeeGraphSpec the golden cases look at. */
export const SpecLike = Type.Object({
  workflows: Type.Array(
    Type.Object({
      trigger: Type.Object({ triggerId: Type.Union([Type.String(), Type.Null()]) }),
      steps: Type.Array(Type.Object({ capabilityId: Type.String() })),
    }),
  ),
  gaps: Type.Array(Type.Object({ category: Type.String(), providerId: Type.Optional(Type.String()) })),
});
export type SpecLike = Static<typeof SpecLike>;

export type CaseScore = {
  id: string;
  capabilityRecall: number;
  capabilityPrecision: number;
  triggerRecall: number;
  missingIntegrationRecall: number;
  /** share of the expected gap categories found among the spec's gaps */
  gapCategoryRecall: number;
  gapCategoriesPresent: boolean;
  workflows: number;
  /** workflows without a single step: a creation that understood nothing of them */
  emptyWorkflows: number;
  workflowsInBounds: boolean;
  /** distinct capabilities the spec's steps use */
  usedCapabilities: number;
  /** what went wrong, for reading */
  missed: {
    capabilities: string[];
    unexpected: string[];
    triggers: string[];
    missingIntegrations: string[];
    gapCategories: string[];
  };
};

const share = (found: number, of: number): number => (of === 0 ? 1 : found / of);

/**
 * Recall of the expected capabilities among the spec's step capabilities; precision of the spec's
 * (distinct) step capabilities against capabilities ∪ alsoAcceptable; recall of triggers among workflow
 * triggers and of missing integrations among missing_integration gaps; every expected gap category
 * present; the workflow count within bounds. An empty expectation scores 1.
 */
export function scoreCase(golden: GoldenCase, spec: SpecLike): CaseScore {
  const e = golden.expect;
  const used = new Set(spec.workflows.flatMap((w) => w.steps.map((s) => s.capabilityId)));
  const triggers = new Set(spec.workflows.map((w) => w.trigger.triggerId).filter((t): t is string => typeof t === 'string'));
  const missingProviders = new Set(
    spec.gaps.filter((g) => g.category === 'missing_integration' && g.providerId).map((g) => g.providerId),
  );
  const categories = new Set(spec.gaps.map((g) => g.category));
  const acceptable = new Set([...e.capabilities, ...e.alsoAcceptable]);

  const missedCaps = e.capabilities.filter((c) => !used.has(c));
  // a step of a provider the org lacks stays when the user promised to connect it (its workflow
  // waits for the connection): golden/README.md says it does not count against precision
  const connected = new Set(golden.org.connected);
  const counted = [...used].filter((c) => acceptable.has(c) || connected.has(c.split('.')[0] ?? c));
  const unexpected = counted.filter((c) => !acceptable.has(c));
  const missedTriggers = e.triggers.filter((t) => !triggers.has(t));
  const missedIntegrations = e.missingIntegrations.filter((p) => !missingProviders.has(p));
  const missedCategories = e.gapCategories.filter((c) => !categories.has(c));
  const n = spec.workflows.length;
  return {
    id: golden.id,
    capabilityRecall: share(e.capabilities.length - missedCaps.length, e.capabilities.length),
    capabilityPrecision: share(counted.length - unexpected.length, counted.length),
    triggerRecall: share(e.triggers.length - missedTriggers.length, e.triggers.length),
    missingIntegrationRecall: share(e.missingIntegrations.length - missedIntegrations.length, e.missingIntegrations.length),
    gapCategoryRecall: share(e.gapCategories.length - missedCategories.length, e.gapCategories.length),
    gapCategoriesPresent: missedCategories.length === 0,
    workflows: n,
    emptyWorkflows: spec.workflows.filter((w) => w.steps.length === 0).length,
    workflowsInBounds: n >= e.minWorkflows && n <= e.maxWorkflows,
    usedCapabilities: counted.length,
    missed: {
      capabilities: missedCaps,
      unexpected,
      triggers: missedTriggers,
      missingIntegrations: missedIntegrations,
      gapCategories: missedCategories,
    },
  };
}

type Rates = {
  capabilityRecall: number;
  capabilityPrecision: number;
  triggerRecall: number;
  missingIntegrationRecall: number;
  gapCategoryRecall: number;
};

export type Totals = {
  cases: number;
  /** mean over cases */
  macro: Rates;
  /** pooled over every expected / produced item of every case */
  micro: Rates;
  gapCategoriesPresent: number;
  /** cases with at least one workflow without steps */
  casesWithEmptyWorkflow: number;
  workflowsInBounds: number;
};

export function totals(golden: readonly GoldenCase[], scores: readonly CaseScore[]): Totals {
  const mean = (f: (s: CaseScore) => number): number =>
    scores.length ? scores.reduce((a, s) => a + f(s), 0) / scores.length : 1;
  const sum = (f: (g: GoldenCase, s: CaseScore) => number): number =>
    scores.reduce((a, s, i) => {
      const g = golden[i];
      return g ? a + f(g, s) : a;
    }, 0);
  const capExpected = sum((g) => g.expect.capabilities.length);
  const capMissed = sum((_, s) => s.missed.capabilities.length);
  const used = sum((_, s) => s.usedCapabilities);
  const unexpected = sum((_, s) => s.missed.unexpected.length);
  const trigExpected = sum((g) => g.expect.triggers.length);
  const trigMissed = sum((_, s) => s.missed.triggers.length);
  const miExpected = sum((g) => g.expect.missingIntegrations.length);
  const miMissed = sum((_, s) => s.missed.missingIntegrations.length);
  const gcExpected = sum((g) => g.expect.gapCategories.length);
  const gcMissed = sum((_, s) => s.missed.gapCategories.length);
  return {
    cases: scores.length,
    macro: {
      capabilityRecall: mean((s) => s.capabilityRecall),
      capabilityPrecision: mean((s) => s.capabilityPrecision),
      triggerRecall: mean((s) => s.triggerRecall),
      missingIntegrationRecall: mean((s) => s.missingIntegrationRecall),
      gapCategoryRecall: mean((s) => s.gapCategoryRecall),
    },
    micro: {
      capabilityRecall: share(capExpected - capMissed, capExpected),
      capabilityPrecision: share(used - unexpected, used),
      triggerRecall: share(trigExpected - trigMissed, trigExpected),
      missingIntegrationRecall: share(miExpected - miMissed, miExpected),
      gapCategoryRecall: share(gcExpected - gcMissed, gcExpected),
    },
    gapCategoriesPresent: scores.filter((s) => s.gapCategoriesPresent).length,
    casesWithEmptyWorkflow: scores.filter((s) => s.emptyWorkflows > 0).length,
    workflowsInBounds: scores.filter((s) => s.workflowsInBounds).length,
  };
}

/** Reads every `*.json` golden case of a folder, sorted by file name; throws on a malformed case. */
export function loadGolden(dir: string): GoldenCase[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const data: unknown = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      if (!Value.Check(GoldenCase, data)) {
        const first = [...Value.Errors(GoldenCase, data)][0];
        throw new Error(`${f}: not a golden case (${first ? `${first.path} ${first.message}` : 'invalid'})`);
      }
      return data;
    });
}

const providerOf = (id: string): string => id.slice(0, id.indexOf('.'));

/**
 * What the offline analyst alone would make of a case: each workflow's connected trigger and step
 * capabilities; a capability or trigger of a provider the org lacks becomes a missing_integration gap,
 * not a step; vague steps, unclear starts and organisational context become gaps of their category.
 */
export function offlineSpec(
  jobDescription: string,
  catalog: { capabilities: readonly CatalogCapability[]; triggers: readonly CatalogTrigger[] },
  connected: readonly string[],
): SpecLike {
  const org: Catalog = { capabilities: [...catalog.capabilities], triggers: [...catalog.triggers], connected: [...connected] };
  const isConnected = (id: string): boolean => connected.includes(providerOf(id));
  const analysis = analyseJob(jobDescription);
  const gaps: SpecLike['gaps'] = [];
  const missing = new Set<string>();
  const lack = (id: string): void => {
    const p = providerOf(id);
    if (!missing.has(p)) {
      missing.add(p);
      gaps.push({ category: 'missing_integration', providerId: p });
    }
  };
  const workflows = analysis.workflows.map((w) => {
    const m = matchWorkflow(w, org);
    const triggerId = m.trigger.triggerId;
    const triggerProvider = triggerId ? providerOf(triggerId) : m.trigger.providerId;
    if (triggerProvider && !connected.includes(triggerProvider)) lack(`${triggerProvider}.`);
    const steps: { capabilityId: string }[] = [];
    for (const s of m.steps) {
      if (s.capabilityId && isConnected(s.capabilityId)) steps.push({ capabilityId: s.capabilityId });
      else if (s.providerId && !connected.includes(s.providerId)) lack(`${s.providerId}.`);
    }
    for (const f of ambiguities(w, m)) gaps.push({ category: f.category });
    return { trigger: { triggerId: triggerId && isConnected(triggerId) ? triggerId : null }, steps };
  });
  return { workflows, gaps };
}
