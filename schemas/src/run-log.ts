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
  },
  { additionalProperties: false },
);
export type ExecutionMetrics = Static<typeof ExecutionMetrics>;
