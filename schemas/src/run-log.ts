/** The run log (`GET /v1/metrics/executions`): how an org's executions and tool calls ended. */
import { type Static, Type } from '@sinclair/typebox';
import { Id, Timestamp } from './common';

export const ExecutionMetricsQuery = Type.Object(
  {
    /** only executions created, and tool calls made, at or after this instant */
    since: Type.Optional(Timestamp),
    /** only the runs of this employee */
    employeeId: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export type ExecutionMetricsQuery = Static<typeof ExecutionMetricsQuery>;

const Count = Type.Integer({ minimum: 0 });
const CodeCount = Type.Object({ code: Type.String({ maxLength: 128 }), count: Count }, { additionalProperties: false });

export const ExecutionMetrics = Type.Object(
  {
    orgId: Id,
    since: Type.Union([Timestamp, Type.Null()]),
    employeeId: Type.Union([Id, Type.Null()]),
    executions: Type.Object(
      {
        total: Count,
        running: Count,
        waiting: Count,
        completed: Count,
        cancelled: Count,
        failed: Count,
      },
      { additionalProperties: false },
    ),
    /** failed executions by reason code (tool_failed, policy_denied, circuit_open, …), most first */
    failures: Type.Array(CodeCount, { maxItems: 50 }),
    /** tool calls by outcome: `succeeded`, `skipped`, `rejected`, or a failure's code (a refusal's reason), most first */
    toolCalls: Type.Object({ total: Count, byOutcome: Type.Array(CodeCount, { maxItems: 50 }) }, { additionalProperties: false }),
    /** the tool calls the rails refused, by reason (scope_denied, policy_denied, quiet_hours, budget_exceeded, rate_limited, circuit_open) */
    refusals: Type.Array(CodeCount, { maxItems: 50 }),
    /** prompts asked of people (distinct prompt ids), creations and runs alike */
    prompts: Type.Object({ asked: Count }, { additionalProperties: false }),
    /** approvals of high-risk steps */
    approvals: Type.Object({ requested: Count, granted: Count, rejected: Count }, { additionalProperties: false }),
    /** the creation graph's loops: refinement iterations per completed creation, and where failed checks routed */
    loops: Type.Object(
      {
        creations: Count,
        perExecution: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
        max: Type.Union([Count, Type.Null()]),
        /** `<failed check> -> <node routed to>`, most first */
        routesAfterFailedChecks: Type.Array(CodeCount, { maxItems: 50 }),
      },
      { additionalProperties: false },
    ),
    /**
     * budget use: budget_exceeded events; tool calls tried (succeeded or failed, refusals included) per
     * execution that tried any; tokens on a language model per completed creation that spent any
     */
    budget: Type.Object(
      {
        exceeded: Count,
        toolCallsPerExecution: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
        maxToolCalls: Type.Union([Count, Type.Null()]),
        tokensPerCreation: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
        maxTokens: Type.Union([Count, Type.Null()]),
      },
      { additionalProperties: false },
    ),
    /** from start to end, over the executions that ended */
    durationSeconds: Type.Object(
      {
        finished: Count,
        average: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
        p50: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
        max: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type ExecutionMetrics = Static<typeof ExecutionMetrics>;
