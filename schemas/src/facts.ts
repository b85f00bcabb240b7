import { type Static, Type } from '@sinclair/typebox';
import { Id, JsonObject, Literals, Name, Percent, ShortText, Text, Timestamp, Uuid } from './common';
import { EmployeeGraphSpec } from './employee';
import { Fact } from './envelope';
import { Limits } from './limits';
import { OrgPolicy } from './policy';

// ---- UIMessage: one line of a conversation's transcript, the user's or hireloop's reply.
export const UIMessage = Fact(
  'UIMessage',
  {
    conversationId: Id,
    userId: Id,
    role: Literals(['user', 'assistant']),
    content: Type.String({ minLength: 1, maxLength: Limits.text }),
  },
  'a line of a conversation, from the user or from hireloop',
);
export type UIMessage = Static<typeof UIMessage>;

// ---- TriggerCreated. The envelope owns `type`, so the trigger's kind is `triggerType`.
export const TriggerTypes = ['create_graph', 'cancel_execution', 'employee_trigger'] as const;
export const CreateGraphPayload = Type.Object(
  { jobDescription: Type.String({ minLength: 1, maxLength: Limits.text }), name: Type.Optional(Name) },
  { additionalProperties: false },
);
/**
 * Why an execution is cancelled: on request, its prompt waited past its deadline, or (never started)
 * its requester already has as many open executions as one user may (MAX_OPEN_PER_USER).
 */
export const CancelReasons = ['requested', 'timeout', 'open_limit'] as const;
export const CancelExecutionPayload = Type.Object(
  { executionId: Id, reason: Type.Optional(Literals(CancelReasons)) },
  { additionalProperties: false },
);
export const TriggerSource = Literals(['chat', 'http', 'supervisor', 'schedule', 'webhook']);
/** A registered employee's workflow fired (ARCHITECTURE §11): by a signed webhook or a cron slot. */
export const EmployeeTriggerPayload = Type.Object(
  {
    employeeId: Id,
    version: Type.Integer({ minimum: 1 }),
    workflowId: Id,
    /** the trigger event: the webhook's body, or `{ slot }` for a cron fire */
    event: JsonObject('the trigger event, valid against the trigger’s event schema'),
    /** the webhook's x-hireloop-delivery, or the cron slot: what the triggerId derives from */
    deliveryId: Type.Optional(Type.String({ minLength: 1, maxLength: Limits.name })),
  },
  { additionalProperties: false },
);
export type EmployeeTriggerPayload = Static<typeof EmployeeTriggerPayload>;

export const TriggerCreated = Type.Union(
  [
    Fact(
      'TriggerCreated',
      {
        triggerId: Id,
        triggerType: Type.Literal('create_graph'),
        payload: CreateGraphPayload,
        source: Type.Optional(TriggerSource),
      },
      'a request to create a digital employee',
    ),
    Fact(
      'TriggerCreated',
      {
        triggerId: Id,
        triggerType: Type.Literal('cancel_execution'),
        payload: CancelExecutionPayload,
        source: Type.Optional(TriggerSource),
      },
      'a request to cancel an execution',
    ),
    Fact(
      'TriggerCreated',
      {
        triggerId: Id,
        triggerType: Type.Literal('employee_trigger'),
        payload: EmployeeTriggerPayload,
        source: Type.Optional(TriggerSource),
      },
      'a registered employee’s workflow fired',
    ),
  ],
  { $id: 'TriggerCreated' },
);
export type TriggerCreated = Static<typeof TriggerCreated>;

// ---- RunIntent: the supervisor's order to a worker.
export const RunIntent = Fact(
  'RunIntent',
  {
    executionId: Id,
    employeeId: Id,
    action: Literals(['start', 'cancel']),
    trigger: Type.Object(
      {
        triggerId: Id,
        triggerType: Literals(TriggerTypes),
        payload: Type.Union([CreateGraphPayload, CancelExecutionPayload, EmployeeTriggerPayload]),
      },
      { additionalProperties: false },
    ),
    reason: Type.Optional(Literals(CancelReasons)),
  },
  'start or cancel an execution',
);
export type RunIntent = Static<typeof RunIntent>;

// ---- HILPrompt: a question to the human; promptId is the LangGraph interrupt id.
export const NavigationAction = Literals(['back', 'skip', 'restart']);
export type NavigationAction = Static<typeof NavigationAction>;

export const PromptOption = Type.Object(
  { id: Id, label: Name, description: Type.Optional(ShortText), recommended: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export type PromptOption = Static<typeof PromptOption>;

export const SelectionRules = Type.Object(
  {
    mode: Literals(['single', 'multi']),
    min: Type.Optional(Type.Integer({ minimum: 0, maximum: Limits.options })),
    max: Type.Optional(Type.Integer({ minimum: 1, maximum: Limits.options })),
  },
  { additionalProperties: false },
);
export type SelectionRules = Static<typeof SelectionRules>;

export const PromptQuestion = Type.Object(
  { id: Id, text: ShortText, exampleAnswer: Type.Optional(ShortText), required: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export type PromptQuestion = Static<typeof PromptQuestion>;

const PromptCommon = {
  executionId: Id,
  promptId: Id,
  messages: Type.Array(Type.String({ maxLength: Limits.message }), { minItems: 1, maxItems: Limits.messages }),
  inputSchema: JsonObject('JSON Schema the answer payload must satisfy'),
  allowedActions: Type.Optional(Type.Array(NavigationAction, { maxItems: 3, uniqueItems: true })),
  progress: Type.Optional(Percent),
};

export const HILPrompt = Type.Union(
  [
    Fact(
      'HILPrompt',
      {
        ...PromptCommon,
        kind: Type.Literal('options'),
        options: Type.Array(PromptOption, { minItems: 1, maxItems: Limits.options }),
        selectionRules: SelectionRules,
      },
      'pick among options',
    ),
    Fact(
      'HILPrompt',
      {
        ...PromptCommon,
        kind: Type.Literal('questions'),
        questions: Type.Array(PromptQuestion, { minItems: 1, maxItems: Limits.questions }),
      },
      'answer questions in free text',
    ),
  ],
  { $id: 'HILPrompt' },
);
export type HILPrompt = Static<typeof HILPrompt>;

// ---- HILResponse: the human's answer, already checked against the prompt's inputSchema.
export const OptionsAnswer = Type.Object(
  { selected: Type.Array(Id, { maxItems: Limits.options, uniqueItems: true }) },
  { additionalProperties: false },
);
export const QuestionsAnswer = Type.Object(
  { answers: Type.Record(Id, Type.String({ maxLength: Limits.text }), { maxProperties: Limits.questions }) },
  { additionalProperties: false },
);
export const NavigationAnswer = Type.Object({ action: NavigationAction }, { additionalProperties: false });
export const AnswerPayload = Type.Union([OptionsAnswer, QuestionsAnswer, NavigationAnswer]);
export type AnswerPayload = Static<typeof AnswerPayload>;

export const HILResponse = Fact(
  'HILResponse',
  { executionId: Id, promptId: Id, kind: Literals(['options', 'questions']), payload: AnswerPayload },
  "the human's answer to a prompt",
);
export type HILResponse = Static<typeof HILResponse>;

// ---- Effects: what a run did through the tool registry (ARCHITECTURE §11, §12).
export const EffectStatus = Literals(['succeeded', 'failed', 'skipped', 'rejected']);
export const EffectError = Type.Object({ code: Id, message: ShortText }, { additionalProperties: false });
export const Effect = Type.Object(
  {
    stepId: Id,
    capabilityId: Id,
    args: JsonObject('the arguments of the call'),
    /** executionId/stepId/hash(args): the same key never acts twice */
    idempotencyKey: Type.String({ minLength: 1, maxLength: 400 }),
    status: EffectStatus,
    output: Type.Optional(JsonObject('what the tool answered')),
    error: Type.Optional(EffectError),
    at: Timestamp,
  },
  { additionalProperties: false },
);
export type Effect = Static<typeof Effect>;

/** How each step of a run ended; `not_run` when its condition did not hold or the run stopped first. */
export const StepOutcome = Type.Object(
  { stepId: Id, status: Literals(['succeeded', 'failed', 'skipped', 'rejected', 'not_run']), detail: Type.Optional(ShortText) },
  { additionalProperties: false },
);
export type StepOutcome = Static<typeof StepOutcome>;

// ---- ExecutionResult: how an execution ended; graph-creator is its only producer.
export const ExecutionStatus = Literals(['completed', 'cancelled', 'failed']);
export const ExecutionResult = Fact(
  'ExecutionResult',
  {
    executionId: Id,
    status: ExecutionStatus,
    output: Type.Optional(
      Type.Object(
        {
          employee: Type.Optional(EmployeeGraphSpec),
          summary: Type.Optional(Text),
          /** a run's steps and how each ended */
          steps: Type.Optional(Type.Array(StepOutcome, { maxItems: Limits.steps })),
        },
        { additionalProperties: false },
      ),
    ),
    error: Type.Optional(Type.Object({ code: Id, message: ShortText }, { additionalProperties: false })),
  },
  'an execution ended',
);
export type ExecutionResult = Static<typeof ExecutionResult>;

// ---- ExecutionEvent: progress, phase, node enter/exit, and records such as a stale answer.
export const ExecutionEventKinds = [
  'phase',
  'progress',
  'node_enter',
  'node_exit',
  'answer_ignored',
  'analyst_fallback',
  // the supervisor's: a request waits for a slot (with its position), it starts, it is refused
  // (the user's open limit), its prompt's deadline is near
  'queued',
  'started',
  'refused',
  'prompt_reminder',
  // a run of an employee (ARCHITECTURE §11)
  'tool_called',
  'tool_succeeded',
  'tool_failed',
  'approval_requested',
  'approval_granted',
  'approval_rejected',
  'budget_exceeded',
  // a high-risk step inside the org's quiet hours under a policy that defers: it waits until `deadline`, then runs again
  'step_deferred',
  'step_resumed',
] as const;
/** The ExecutionEvent kinds the supervisor publishes (every other kind comes from the worker). */
export const SupervisorEventKinds = ['queued', 'started', 'refused', 'prompt_reminder'] as const;
export const ExecutionEvent = Fact(
  'ExecutionEvent',
  {
    executionId: Id,
    event: Literals(ExecutionEventKinds),
    phase: Type.Optional(Name),
    progress: Type.Optional(Percent),
    node: Type.Optional(Name),
    detail: Type.Optional(ShortText),
    at: Type.Optional(Timestamp),
    position: Type.Optional(
      Type.Integer({ minimum: 1, description: "queued: the request's place in its organisation's queue (1 = next)" }),
    ),
    ticket: Type.Optional(
      Type.Integer({ minimum: 1, description: "queued: the supervisor's order of the queue, so that a rebuild restores it" }),
    ),
    promptId: Type.Optional(Id),
    deadline: Type.Optional(Timestamp),
    /** the step of a run the event is about */
    stepId: Type.Optional(Id),
    /** a reason code: policy_denied, budget_exceeded, tool_failed, … */
    reason: Type.Optional(Id),
    /** the call's record, on tool_succeeded / tool_failed and on a skipped or rejected step */
    effect: Type.Optional(Effect),
  },
  'what an execution is doing',
);
export type ExecutionEvent = Static<typeof ExecutionEvent>;

// ---- Employee lifecycle (ARCHITECTURE §11): activation and deactivation of a registered employee.
export const WorkflowActivation = Type.Object(
  {
    workflowId: Id,
    triggerId: Id,
    /** off: the workflow waits for a connection or cannot run; `reason` says why */
    status: Literals(['on', 'off']),
    reason: Type.Optional(ShortText),
    /** a schedule.cron workflow's cron expression and time zone: the supervisor fires its slots */
    schedule: Type.Optional(
      Type.Object(
        { cron: Type.String({ minLength: 1, maxLength: 120 }), timezone: Type.Optional(Type.String({ maxLength: 64 })) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type WorkflowActivation = Static<typeof WorkflowActivation>;

export const EmployeeActivated = Fact(
  'EmployeeActivated',
  {
    employeeId: Id,
    version: Type.Integer({ minimum: 1 }),
    /** each activation is new: webhook secrets derive from it, so activating again rotates them */
    activationId: Uuid,
    workflows: Type.Array(WorkflowActivation, { maxItems: Limits.workflows }),
  },
  'an employee was switched on: its triggers fire runs',
);
export type EmployeeActivated = Static<typeof EmployeeActivated>;

export const EmployeeDeactivated = Fact(
  'EmployeeDeactivated',
  { employeeId: Id, version: Type.Integer({ minimum: 1 }) },
  'an employee was switched off: its triggers are refused',
);
export type EmployeeDeactivated = Static<typeof EmployeeDeactivated>;

export const PolicyChanged = Fact(
  'PolicyChanged',
  {
    /** the whole policy as set (a PUT replaces it) */
    policy: OrgPolicy,
    /** the administrator who set it */
    changedBy: Id,
  },
  "an org's policy for its employees' tool calls was set",
);
export type PolicyChanged = Static<typeof PolicyChanged>;

export const ConnectionsChanged = Fact(
  'ConnectionsChanged',
  {
    /** every provider the org has connected once the change is saved, sorted (a PUT replaces the set) */
    providers: Type.Array(Id, { maxItems: 500 }),
    /** the org's connections version after it (the hub's `version`, bumped by every change) */
    version: Type.Integer({ minimum: 0 }),
    /** the administrator who set them */
    changedBy: Id,
  },
  "an org's connections were set at the Connect Hub: a cached view of its catalog is stale",
);
export type ConnectionsChanged = Static<typeof ConnectionsChanged>;

export const FactSchemas = {
  UIMessage,
  TriggerCreated,
  RunIntent,
  HILPrompt,
  HILResponse,
  ExecutionResult,
  ExecutionEvent,
  EmployeeActivated,
  EmployeeDeactivated,
  PolicyChanged,
  ConnectionsChanged,
} as const;

export type AnyFact =
  | UIMessage
  | TriggerCreated
  | RunIntent
  | HILPrompt
  | HILResponse
  | ExecutionResult
  | ExecutionEvent
  | EmployeeActivated
  | EmployeeDeactivated
  | PolicyChanged
  | ConnectionsChanged;
export type FactOf<T extends AnyFact['type']> = Extract<AnyFact, { type: T }>;
