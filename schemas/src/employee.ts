import { type Static, Type } from '@sinclair/typebox';
import { Id, JsonObject, Literals, Name, ShortText, Text, Uuid } from './common';
import { Limits } from './limits';

export const GapCategories = [
  'missing_integration',
  'underspecified_task',
  'organizational_context',
  'workflow_ambiguity',
] as const;
export const GapCategory = Literals(GapCategories);
export type GapCategory = Static<typeof GapCategory>;

/**
 * Where a value comes from at run time (ARCHITECTURE §11). `path` is a dotted path into the trigger
 * event or the named step's output (`ticket.requester.email`, `amount`); an empty path is the whole.
 */
export const Path = Type.String({ maxLength: Limits.name, pattern: '^$|^[A-Za-z0-9_]+(\\.[A-Za-z0-9_]+)*$' });
export const FromTrigger = Type.Object({ from: Type.Literal('trigger'), path: Path }, { additionalProperties: false });
export const FromStep = Type.Object({ from: Type.Literal('step'), stepId: Id, path: Path }, { additionalProperties: false });
export const ScalarValue = Type.Union([Type.String({ maxLength: Limits.text }), Type.Number(), Type.Boolean()]);
export const ConstantValue = Type.Object(
  {
    value: Type.Union([ScalarValue, Type.Array(Type.String({ maxLength: Limits.shortText }), { maxItems: 100 })]),
    /** 'user' when a person gave it in the conversation, 'default' when hireloop chose it */
    origin: Type.Optional(Literals(['user', 'default'])),
  },
  { additionalProperties: false },
);
export const AskAtRunTime = Type.Object(
  { ask: Type.Literal(true), question: Type.Optional(ShortText) },
  { additionalProperties: false },
);
/** One input of a step: from the trigger event, an earlier step's output, a constant, or asked at run time. */
export const Binding = Type.Union([FromTrigger, FromStep, ConstantValue, AskAtRunTime]);
export type Binding = Static<typeof Binding>;

export const ConditionOps = ['lt', 'lte', 'gt', 'gte', 'eq', 'neq', 'exists', 'not_exists', 'contains'] as const;
/** A comparison of a value from the trigger or an earlier step with a constant (`exists` needs none). */
export const Comparison = Type.Object(
  {
    source: Type.Union([FromTrigger, FromStep]),
    op: Literals(ConditionOps),
    value: Type.Optional(ScalarValue),
  },
  { additionalProperties: false },
);
export type Comparison = Static<typeof Comparison>;
/** When a step runs: one comparison, or all / any of several. */
export const Condition = Type.Union([
  Comparison,
  Type.Object({ all: Type.Array(Comparison, { minItems: 1, maxItems: 10 }) }, { additionalProperties: false }),
  Type.Object({ any: Type.Array(Comparison, { minItems: 1, maxItems: 10 }) }, { additionalProperties: false }),
]);
export type Condition = Static<typeof Condition>;

export const Step = Type.Object(
  {
    id: Id,
    capabilityId: Id,
    purpose: ShortText,
    /** every required input of the capability, by name, bound to its source */
    inputs: Type.Record(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]*$', maxLength: 64 }), Binding, { maxProperties: 50 }),
    /** the step runs only when this holds; absent: always */
    when: Type.Optional(Condition),
    risk: Literals(['low', 'high']),
    dependsOn: Type.Array(Id, { maxItems: Limits.steps }),
  },
  { additionalProperties: false },
);
export type Step = Static<typeof Step>;

export const Workflow = Type.Object(
  {
    id: Id,
    name: Name,
    description: Text,
    trigger: Type.Object(
      { triggerId: Id, params: JsonObject('trigger parameters, valid against its schema') },
      { additionalProperties: false },
    ),
    steps: Type.Array(Step, { maxItems: Limits.steps }),
    behaviourPrompt: Text,
    /** absent or 'satisfied'; 'unsatisfied' when a blocking gap was skipped (the reason says which) */
    status: Type.Optional(Literals(['satisfied', 'unsatisfied'])),
    unsatisfiedReason: Type.Optional(ShortText),
    /** providers the user promised to connect: activation leaves the workflow off until the org has them */
    waitingFor: Type.Optional(Type.Array(Id, { maxItems: 20 })),
  },
  { additionalProperties: false },
);
export type Workflow = Static<typeof Workflow>;

export const Gap = Type.Object(
  {
    id: Id,
    category: GapCategory,
    providerId: Type.Optional(Id),
    workflowId: Type.Optional(Id),
    stepId: Type.Optional(Id),
    blocking: Type.Boolean(),
    question: ShortText,
    resolution: Literals(['answered', 'defaulted', 'unsatisfied']),
    answer: Type.Optional(Text),
    default: Type.Optional(ShortText),
  },
  { additionalProperties: false },
);
export type Gap = Static<typeof Gap>;

const GraphNode = Type.Object(
  {
    id: Id,
    kind: Literals(['tool', 'router', 'interrupt', 'start', 'end']),
    capabilityId: Type.Optional(Id),
    reads: Type.Array(Name, { maxItems: 50 }),
    writes: Type.Array(Name, { maxItems: 50 }),
  },
  { additionalProperties: false },
);
const GraphEdge = Type.Object(
  {
    from: Id,
    to: Id,
    condition: Type.Optional(ShortText),
    maxIterations: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  },
  { additionalProperties: false },
);

export const CompiledGraph = Type.Object(
  {
    nodes: Type.Array(GraphNode, { maxItems: Limits.graphItems }),
    edges: Type.Array(GraphEdge, { maxItems: Limits.graphItems }),
    stateSchema: JsonObject('JSON Schema of the employee graph state'),
    tools: Type.Array(Id, { maxItems: Limits.graphItems }),
    budgets: Type.Object(
      {
        maxSteps: Type.Integer({ minimum: 1, maximum: 10_000 }),
        maxToolCalls: Type.Integer({ minimum: 1, maximum: 10_000 }),
        timeoutSeconds: Type.Integer({ minimum: 1, maximum: 86_400 }),
      },
      { additionalProperties: false },
    ),
    interruptPoints: Type.Array(Id, { maxItems: Limits.graphItems }),
  },
  { additionalProperties: false },
);
export type CompiledGraph = Static<typeof CompiledGraph>;

export const ValidationCheck = Type.Object(
  { id: Id, passed: Type.Boolean(), detail: ShortText },
  { additionalProperties: false },
);

export const RoutingTraceEntry = Type.Object(
  {
    attempt: Type.Integer({ minimum: 1 }),
    failedCheck: Id,
    routedTo: Id,
    matchedRules: Type.Array(Id, { maxItems: 20 }),
  },
  { additionalProperties: false },
);

/** The result of a finished creation (ARCHITECTURE §8a). */
export const EmployeeGraphSpec = Type.Object(
  {
    employeeId: Uuid,
    orgId: Id,
    name: Name,
    version: Type.Integer({ minimum: 1 }),
    jobDescription: Text,
    workflows: Type.Array(Workflow, { maxItems: Limits.workflows }),
    gaps: Type.Array(Gap, { maxItems: Limits.gaps }),
    compiled: CompiledGraph,
    validation: Type.Object(
      { passed: Type.Boolean(), checks: Type.Array(ValidationCheck, { maxItems: Limits.checks }) },
      { additionalProperties: false },
    ),
    diagram: Type.String({ maxLength: 50_000 }),
    history: Type.Object(
      {
        iterations: Type.Integer({ minimum: 0 }),
        promptsAsked: Type.Integer({ minimum: 0 }),
        routingTrace: Type.Array(RoutingTraceEntry, { maxItems: Limits.trace }),
        /** tokens the creation spent on a language model (absent: none was asked) */
        tokensUsed: Type.Optional(Type.Integer({ minimum: 0 })),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, $id: 'EmployeeGraphSpec' },
);
export type EmployeeGraphSpec = Static<typeof EmployeeGraphSpec>;
