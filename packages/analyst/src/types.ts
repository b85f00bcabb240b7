import { CatalogCapability, CatalogTrigger } from '@hireloop/schemas';
import { type Static, Type } from '@sinclair/typebox';

// The analyst's structured outputs. An LLM analyst's output is validated by these same schemas, so
// they stay plain JSON Schema: objects, strings, numbers, arrays, nulls — no transforms.

const Id = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:@-]+$' });
const Line = Type.String({ maxLength: 500 });
const Paragraph = Type.String({ maxLength: 4000 });
const Confidence = Type.Number({ minimum: 0, maximum: 1 });

export const TriggerKind = Type.Union([
  Type.Literal('event'),
  Type.Literal('schedule'),
  Type.Literal('manual'),
  Type.Literal('unknown'),
]);
export type TriggerKind = Static<typeof TriggerKind>;

export const DraftStep = Type.Object(
  {
    id: Id,
    /** the clause of the job description this step comes from */
    text: Line,
    /** normalised verb and object, e.g. "send email" */
    action: Type.String({ maxLength: 200 }),
  },
  { additionalProperties: false },
);
export type DraftStep = Static<typeof DraftStep>;

export const DraftWorkflow = Type.Object(
  {
    id: Id,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: Paragraph,
    /** the source text of the responsibility this workflow carries out */
    responsibility: Paragraph,
    triggerHint: Type.Object({ kind: TriggerKind, text: Line }, { additionalProperties: false }),
    steps: Type.Array(DraftStep, { maxItems: 30 }),
    /** products the description says are not connected, that this workflow's work speaks of */
    unconnected: Type.Optional(
      Type.Array(Type.Object({ providerId: Id, excerpt: Line }, { additionalProperties: false }), { maxItems: 10 }),
    ),
  },
  { additionalProperties: false },
);
export type DraftWorkflow = Static<typeof DraftWorkflow>;

export const JobAnalysis = Type.Object(
  { workflows: Type.Array(DraftWorkflow, { maxItems: 20 }), confidence: Confidence },
  { additionalProperties: false },
);
export type JobAnalysis = Static<typeof JobAnalysis>;

export const TriggerMatch = Type.Object(
  {
    triggerId: Type.Union([Id, Type.Null()]),
    /** parameters for the trigger, valid against its paramsSchema */
    params: Type.Record(
      Type.String({ maxLength: 64 }),
      Type.Union([Type.String({ maxLength: 500 }), Type.Number(), Type.Boolean()]),
      {
        maxProperties: 20,
      },
    ),
    confidence: Confidence,
    alternatives: Type.Array(Id, { maxItems: 5 }),
    /** the provider the start event lives in, also when no trigger of the catalog fits it exactly */
    providerId: Type.Optional(Type.Union([Id, Type.Null()])),
  },
  { additionalProperties: false },
);
export type TriggerMatch = Static<typeof TriggerMatch>;

export const StepMatch = Type.Object(
  {
    stepId: Id,
    capabilityId: Type.Union([Id, Type.Null()]),
    /** the capability's provider; without a capability, the product the step names ("look it up in BambooHR") */
    providerId: Type.Union([Id, Type.Null()]),
    confidence: Confidence,
    candidates: Type.Array(Id, { maxItems: 5 }),
  },
  { additionalProperties: false },
);
export type StepMatch = Static<typeof StepMatch>;

export const CapabilityMatch = Type.Object(
  { workflowId: Id, trigger: TriggerMatch, steps: Type.Array(StepMatch, { maxItems: 30 }) },
  { additionalProperties: false },
);
export type CapabilityMatch = Static<typeof CapabilityMatch>;

/** What the analyst matches against: the org's view of the Connect Hub catalog. */
export const Catalog = Type.Object(
  {
    capabilities: Type.Array(CatalogCapability, { maxItems: 5000 }),
    triggers: Type.Array(CatalogTrigger, { maxItems: 5000 }),
    /** provider ids the org has connected */
    connected: Type.Array(Id, { maxItems: 500 }),
  },
  { additionalProperties: false },
);
export type Catalog = Static<typeof Catalog>;

/** Something gap identification should ask about: an underspecified task, missing context, an unclear start. */
export const Finding = Type.Object(
  {
    category: Type.Union([
      Type.Literal('underspecified_task'),
      Type.Literal('organizational_context'),
      Type.Literal('workflow_ambiguity'),
    ]),
    workflowId: Id,
    stepId: Type.Optional(Id),
    /** the words that raised it */
    excerpt: Line,
    reason: Line,
    question: Line,
    /** nothing sensible can be assumed: the workflow cannot run without an answer */
    blocking: Type.Boolean(),
    /** what to assume when the human skips the question (non-blocking findings only) */
    default: Type.Optional(Line),
  },
  { additionalProperties: false },
);
export type Finding = Static<typeof Finding>;
