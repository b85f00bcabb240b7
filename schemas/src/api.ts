/**
 * The gateway's client protocols (ARCHITECTURE §4a): every HTTP body, params, query and response, and
 * every WebSocket frame. The gateway validates with these and generates its OpenAPI document from them.
 */
import { type Static, type TObject, type TProperties, Type } from '@sinclair/typebox';
import { Id, JsonObject, Literals, Name, Percent, Timestamp, Uuid } from './common';
import { EmployeeGraphSpec } from './employee';
import {
  CreateGraphPayload,
  Effect,
  ExecutionResult,
  ExecutionStatus,
  HILPrompt,
  SupervisorEventKinds,
  WorkflowActivation,
} from './facts';
import { Limits } from './limits';

/** Bounds of the client protocols beyond those of the facts. */
export const ApiLimits = {
  /** a JWT carried in a frame or a query string */
  token: 4_096,
  /** an opaque reference a client may put on a frame, echoed on the error it causes */
  ref: Limits.id,
  /** executions or employees in one list response */
  list: 500,
  /** facts in one timeline response */
  timeline: 5_000,
} as const;

// ---- errors -------------------------------------------------------------------------------------

/** The codes a client can see: hireloop's error taxonomy (platform `ErrorCodes`), lower-cased. */
export const ApiErrorCodes = [
  'bad_request',
  'validation_failed',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'employee_inactive',
  'conflict',
  'payload_too_large',
  'headers_too_large',
  'request_timeout',
  'upgrade_required',
  'unsupported_media_type',
  'rate_limited',
  'unavailable',
  'publish_failed',
  'internal',
] as const;
export const ApiErrorCode = Literals(ApiErrorCodes);
export type ApiErrorCode = Static<typeof ApiErrorCode>;

export const ApiError = Type.Object(
  {
    code: ApiErrorCode,
    message: Type.String({ maxLength: 2_000, description: 'what was wrong and how to fix it' }),
    field: Type.Optional(
      Type.String({ maxLength: 500, description: 'JSON pointer of the failing field, e.g. /payload/jobDescription' }),
    ),
    ref: Type.Optional(Type.String({ maxLength: ApiLimits.ref, description: 'the id to quote when reporting a 5xx' })),
  },
  { additionalProperties: false, description: 'every 4xx and 5xx body' },
);
export type ApiError = Static<typeof ApiError>;

// ---- prompts as clients see them -----------------------------------------------------------------

const envelopeKeys = ['type', 'id', 'orgId', 'ts', 'correlation', 'causationId'] as const;

const [OptionsPromptFact, QuestionsPromptFact] = HILPrompt.anyOf;

/** A HILPrompt without its envelope: what a client is asked (promptId, kind, messages, inputSchema, …). */
export const OptionsPromptView = Type.Omit(OptionsPromptFact, envelopeKeys, { additionalProperties: false });
export const QuestionsPromptView = Type.Omit(QuestionsPromptFact, envelopeKeys, { additionalProperties: false });
export const PromptView = Type.Union([OptionsPromptView, QuestionsPromptView], {
  description: 'a pending question: answer it with its promptId',
});
export type PromptView = Static<typeof PromptView>;

/** How an execution ended (ExecutionResult without its envelope and executionId). */
export const ResultView = Type.Omit(ExecutionResult, [...envelopeKeys, 'executionId'], { additionalProperties: false });
export type ResultView = Static<typeof ResultView>;

// ---- HTTP ---------------------------------------------------------------------------------------

export const CreateTriggerBody = Type.Object(
  {
    type: Type.Literal('create_graph'),
    orgId: Type.Optional(Id),
    payload: CreateGraphPayload,
    conversationId: Type.Optional(Id),
  },
  { additionalProperties: false, description: 'start creating a digital employee from a job description' },
);
export type CreateTriggerBody = Static<typeof CreateTriggerBody>;

export const CreateTriggerHeaders = Type.Object(
  {
    'idempotency-key': Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        pattern: '^[\\x21-\\x7e]+$',
        description: 'the same key sent again is the same request: same triggerId and conversation, nothing started twice',
      }),
    ),
  },
  { additionalProperties: true },
);
export type CreateTriggerHeaders = Static<typeof CreateTriggerHeaders>;

export const TriggerAccepted = Type.Object(
  { triggerId: Uuid, conversationId: Id },
  { additionalProperties: false, description: 'the trigger is published; prompts follow on the conversation' },
);
export type TriggerAccepted = Static<typeof TriggerAccepted>;

export const ExecutionParams = Type.Object({ id: Id }, { additionalProperties: false });
export type ExecutionParams = Static<typeof ExecutionParams>;

export const ChatQuery = Type.Object(
  {
    token: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: ApiLimits.token,
        description: 'a JWT, when the upgrade has no Authorization header',
      }),
    ),
    conversationId: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export type ChatQuery = Static<typeof ChatQuery>;

/** Every status the executions projection gives an execution, in the order a run moves through them. */
export const ExecutionProjectionStatuses = ['queued', 'running', 'waiting', 'completed', 'cancelled', 'failed'] as const;

/** A GET that takes no query parameters: an unknown one is a 400 naming it, as on every list that takes some. */
export const NoQuery = Type.Object({}, { additionalProperties: false });
export type NoQuery = Static<typeof NoQuery>;

export const ListExecutionsQuery = Type.Object(
  {
    conversationId: Type.Optional(Id),
    /** the runs of one employee */
    employeeId: Type.Optional(Id),
    /**
     * `awaiting_input`: every execution with a prompt this caller may answer (the inbox); or one of the
     * statuses an execution reads (`ExecutionProjectionStatuses`)
     */
    status: Type.Optional(Literals(['awaiting_input', ...ExecutionProjectionStatuses])),
    /** how many to list at most (default and largest: 500) */
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ApiLimits.list })),
    /** the next page: those listed after this execution, as a list's `next` names it */
    after: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export type ListExecutionsQuery = Static<typeof ListExecutionsQuery>;

export const ExecutionLifecycle = Type.String({
  maxLength: 32,
  description:
    'the projection status: queued (waiting for a slot of the organisation: see position), running, waiting (a prompt is pending), or how it ended',
});

/** A queued execution's place in its organisation's queue: 1 is next. */
export const QueuePosition = Type.Integer({
  minimum: 1,
  description: "a queued request's place in its organisation's queue (1 = next)",
});

export const ExecutionView = Type.Object(
  {
    executionId: Id,
    conversationId: Type.Union([Id, Type.Null()]),
    status: ExecutionLifecycle,
    currentPrompt: Type.Union([PromptView, Type.Null()]),
    progress: Type.Union([Percent, Type.Null()]),
    phase: Type.Union([Name, Type.Null()]),
    result: Type.Union([ResultView, Type.Null()]),
    position: Type.Optional(QueuePosition),
    employeeId: Type.Optional({
      ...Id,
      description: "a run's employee (GET /v1/employees/:id); absent for a creation",
    }),
    workflowId: Type.Optional({
      ...Id,
      description: "a run's workflow of its employee (what started it); absent for a creation",
    }),
    createdAt: Type.Optional(Timestamp),
    updatedAt: Type.Optional(Timestamp),
  },
  { additionalProperties: false, description: "an execution of the caller's" },
);
export type ExecutionView = Static<typeof ExecutionView>;

export const ExecutionList = Type.Object(
  {
    executions: Type.Array(ExecutionView, { maxItems: ApiLimits.list }),
    /** present when more follow: pass it as `after=` to list the next page */
    next: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export type ExecutionList = Static<typeof ExecutionList>;

export const TimelineEntry = Type.Object(
  {
    seq: Type.Integer({ minimum: 1, description: 'position in the event store' }),
    id: Uuid,
    ts: Timestamp,
    topic: Name,
    type: Name,
    who: Type.String({ maxLength: Limits.id, description: 'the user who acted, or the service that produced the fact' }),
    summary: Type.String({ maxLength: Limits.shortText }),
    fact: JsonObject('the fact as it was published'),
  },
  { additionalProperties: false },
);
export type TimelineEntry = Static<typeof TimelineEntry>;
export const Timeline = Type.Object(
  { executionId: Id, events: Type.Array(TimelineEntry, { maxItems: ApiLimits.timeline }) },
  { additionalProperties: false, description: "the execution's audit timeline, oldest first" },
);
export type Timeline = Static<typeof Timeline>;

export const RespondBody = Type.Object(
  {
    promptId: Id,
    kind: Literals(['options', 'questions']),
    payload: JsonObject("the answer: it must satisfy the prompt's inputSchema"),
  },
  { additionalProperties: false, description: 'answer the pending prompt of an execution' },
);
export type RespondBody = Static<typeof RespondBody>;

export const ResponseAccepted = Type.Object(
  { responseId: Uuid, executionId: Id, promptId: Id },
  { additionalProperties: false, description: 'the answer is published; the execution resumes' },
);
export type ResponseAccepted = Static<typeof ResponseAccepted>;

export const CancelAccepted = Type.Object(
  { triggerId: Uuid, executionId: Id },
  { additionalProperties: false, description: 'the cancellation is published' },
);
export type CancelAccepted = Static<typeof CancelAccepted>;

export const EmployeeParams = Type.Object({ id: Id }, { additionalProperties: false });
export type EmployeeParams = Static<typeof EmployeeParams>;

export const EmployeeView = Type.Object(
  {
    employeeId: Id,
    name: Name,
    version: Type.Integer({ minimum: 1 }),
    executionId: Id,
    registeredAt: Timestamp,
    /** inactive until activated (ARCHITECTURE §11) */
    status: Type.Optional(Literals(['active', 'inactive'])),
    /** per workflow: on, or off with the reason (e.g. waiting for a connection) — once activated */
    workflows: Type.Optional(Type.Array(WorkflowActivation, { maxItems: Limits.workflows })),
    spec: Type.Optional(EmployeeGraphSpec),
  },
  { additionalProperties: false, description: 'a registered version of a digital employee (its spec only when asked for by id)' },
);
export type EmployeeView = Static<typeof EmployeeView>;

export const HookView = Type.Object(
  {
    workflowId: Id,
    url: Type.String({ maxLength: 500, description: 'POST the trigger event here, signed with the secret' }),
    secret: Type.String({ maxLength: 200, description: 'HMAC-SHA256 key of x-hireloop-signature; shown once' }),
  },
  { additionalProperties: false },
);
export const ActivationView = Type.Object(
  {
    employeeId: Id,
    version: Type.Integer({ minimum: 1 }),
    status: Literals(['active', 'inactive']),
    hooks: Type.Array(HookView, { maxItems: Limits.workflows }),
    workflows: Type.Optional(Type.Array(WorkflowActivation, { maxItems: Limits.workflows })),
  },
  { additionalProperties: false, description: 'the employee after activation or deactivation' },
);
export type ActivationView = Static<typeof ActivationView>;

export const HookParams = Type.Object({ employeeId: Id, workflowId: Id }, { additionalProperties: false });
export type HookParams = Static<typeof HookParams>;
export const HookAccepted = Type.Object(
  { triggerId: Id, executionId: Id },
  { additionalProperties: false, description: 'the run is started (the same delivery id twice: the same run)' },
);
export type HookAccepted = Static<typeof HookAccepted>;

export const EffectList = Type.Array(Effect, {
  maxItems: ApiLimits.timeline,
  description: 'what a run did, in the order it did it',
});
export type EffectList = Static<typeof EffectList>;

export const EmployeeList = Type.Object(
  { employees: Type.Array(EmployeeView, { maxItems: ApiLimits.list }) },
  { additionalProperties: false },
);
export type EmployeeList = Static<typeof EmployeeList>;

export const ConversationParams = Type.Object({ id: Id }, { additionalProperties: false });
export type ConversationParams = Static<typeof ConversationParams>;

export const ConversationLine = Type.Object(
  {
    id: Uuid,
    role: Literals(['user', 'assistant']),
    text: Type.String({ maxLength: Limits.text }),
    ts: Timestamp,
  },
  { additionalProperties: false, description: "a chat line: the caller's, or hireloop's reply to the caller" },
);
export type ConversationLine = Static<typeof ConversationLine>;

export const ConversationMessages = Type.Object(
  { conversationId: Id, messages: Type.Array(ConversationLine, { maxItems: ApiLimits.timeline }) },
  {
    additionalProperties: false,
    description: "a conversation's chat lines, oldest first (prompts and answers are in its executions' timelines)",
  },
);
export type ConversationMessages = Static<typeof ConversationMessages>;

// ---- WebSocket frames, client → gateway -----------------------------------------------------------

const ClientCommon = {
  conversationId: Id,
  token: Type.Optional(Type.String({ minLength: 1, maxLength: ApiLimits.token, description: 'a JWT, when the socket has none' })),
  ref: Type.Optional(
    Type.String({ minLength: 1, maxLength: ApiLimits.ref, description: 'echoed on the error this frame causes' }),
  ),
};
const clientFrame = <T extends TProperties>(properties: T, description: string): TObject<T & typeof ClientCommon> =>
  Type.Object({ ...ClientCommon, ...properties }, { additionalProperties: false, description });

export const MessageFrame = clientFrame(
  { type: Type.Optional(Type.Literal('message')), text: Type.String({ minLength: 1, maxLength: Limits.text }) },
  'a chat line (type may be omitted)',
);
export type MessageFrame = Static<typeof MessageFrame>;

export const HilResponseFrame = clientFrame(
  {
    type: Type.Literal('hil_response'),
    executionId: Id,
    promptId: Id,
    kind: Type.Optional(Literals(['options', 'questions'])),
    payload: JsonObject("the answer: it must satisfy the prompt's inputSchema"),
  },
  'an answer to a prompt',
);
export type HilResponseFrame = Static<typeof HilResponseFrame>;

export const CancelFrame = clientFrame({ type: Type.Literal('cancel'), executionId: Id }, 'cancel an execution');
export type CancelFrame = Static<typeof CancelFrame>;

export const ClientFrameTypes = ['message', 'hil_response', 'cancel'] as const;
export type ClientFrameType = (typeof ClientFrameTypes)[number];
export const ClientFrame = Type.Union([MessageFrame, HilResponseFrame, CancelFrame], { description: 'client → gateway' });
export type ClientFrame = Static<typeof ClientFrame>;

/** The schema of each client frame type, to validate a frame against the one its `type` names. */
export const ClientFrameSchemas = { message: MessageFrame, hil_response: HilResponseFrame, cancel: CancelFrame } as const;

// ---- WebSocket frames, gateway → client -----------------------------------------------------------

const promptFrame = <T extends TProperties>(view: TObject<T>) =>
  Type.Object({ ...view.properties, type: Type.Literal('hil_prompt'), conversationId: Id }, { additionalProperties: false });
export const HilPromptFrame = Type.Union([promptFrame(OptionsPromptView), promptFrame(QuestionsPromptView)], {
  description: 'a prompt for the conversation: every field of the HILPrompt',
});
export type HilPromptFrame = Static<typeof HilPromptFrame>;

export const ExecutionEventFrame = Type.Object(
  {
    type: Type.Literal('execution_event'),
    conversationId: Id,
    executionId: Id,
    phase: Name,
    progress: Percent,
    // queued (see position), started, refused (the open limit: a message says more), prompt_reminder (see deadline)
    event: Type.Optional(Literals(SupervisorEventKinds)),
    position: Type.Optional(QueuePosition),
    deadline: Type.Optional(Timestamp),
  },
  { additionalProperties: false, description: 'what an execution is doing' },
);
export type ExecutionEventFrame = Static<typeof ExecutionEventFrame>;

export const ExecutionResultFrame = Type.Object(
  {
    type: Type.Literal('execution_result'),
    conversationId: Id,
    executionId: Id,
    status: ExecutionStatus,
    output: Type.Optional(ResultView.properties.output),
    error: Type.Optional(ResultView.properties.error),
  },
  { additionalProperties: false, description: 'an execution ended' },
);
export type ExecutionResultFrame = Static<typeof ExecutionResultFrame>;

export const AssistantMessageFrame = Type.Object(
  { type: Type.Literal('message'), conversationId: Id, text: Type.String({ maxLength: Limits.text }) },
  { additionalProperties: false, description: "hireloop's reply that is not a prompt" },
);
export type AssistantMessageFrame = Static<typeof AssistantMessageFrame>;

export const ErrorFrame = Type.Object(
  {
    type: Type.Literal('error'),
    code: ApiErrorCode,
    message: Type.String({ maxLength: 2_000, description: 'what was wrong (naming the field) and how to fix it' }),
    ref: Type.Optional(Type.String({ maxLength: ApiLimits.ref })),
  },
  { additionalProperties: false, description: 'a frame was refused; the socket stays open' },
);
export type ErrorFrame = Static<typeof ErrorFrame>;

export const ServerFrame = Type.Union(
  [HilPromptFrame, ExecutionEventFrame, ExecutionResultFrame, AssistantMessageFrame, ErrorFrame],
  {
    description: 'gateway → client',
  },
);
export type ServerFrame = Static<typeof ServerFrame>;
