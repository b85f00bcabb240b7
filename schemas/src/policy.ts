/**
 * Per-org rules of the tool registry (ARCHITECTURE §12): which tools may run, limits on their
 * arguments, quiet hours for high-risk steps, per-tool rates and default budgets of a run.
 * Stored per org in Postgres (`org_policies`), read by the worker, set through the admin API.
 */
import { type Static, Type } from '@sinclair/typebox';
import { Id, Literals } from './common';

/** Calls per window, per org and tool: `60/m` (s, m, h or d). */
export const Rate = Type.String({
  pattern: '^[1-9][0-9]{0,5}/(s|m|h|d)$',
  maxLength: 10,
  description: 'calls per window per org and tool, e.g. 60/m',
});
export type Rate = Static<typeof Rate>;

const Clock = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, 24-hour' });

export const ArgumentLimit = Type.Object(
  {
    capabilityId: Id,
    /** a top-level argument of the capability, e.g. `amount` */
    argument: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_]+$' }),
    max: Type.Number({ description: 'the largest value allowed (e.g. the largest refund)' }),
  },
  { additionalProperties: false },
);
export type ArgumentLimit = Static<typeof ArgumentLimit>;

export const QuietHours = Type.Object(
  {
    start: Clock,
    end: Clock,
    timeZone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Paris' }),
    /**
     * what a high-risk step inside them does: `defer` — refused with `quiet_hours`, to run again later;
     * `approval` — it runs only when a person approved that step of the run
     */
    during: Literals(['defer', 'approval']),
  },
  { additionalProperties: false },
);
export type QuietHours = Static<typeof QuietHours>;

export const ToolRate = Type.Object({ capabilityId: Id, rate: Rate }, { additionalProperties: false });

export const OrgPolicy = Type.Object(
  {
    /** capability ids (`stripe.refund_payment`) or provider ids (`stripe`); absent: every tool */
    allowedTools: Type.Optional(Type.Array(Id, { maxItems: 500 })),
    /** refused even when allowed */
    deniedTools: Type.Optional(Type.Array(Id, { maxItems: 500 })),
    argumentLimits: Type.Optional(Type.Array(ArgumentLimit, { maxItems: 200 })),
    quietHours: Type.Optional(QuietHours),
    /** per-tool rates; a tool without one has the registry's default */
    rates: Type.Optional(Type.Array(ToolRate, { maxItems: 500 })),
    /** the org's default budgets of a run; a spec's compiled.budgets win */
    budgets: Type.Optional(
      Type.Object(
        {
          maxSteps: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
          maxToolCalls: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
          /** tokens a run or a creation may spend on a language model (counted from the model's usage) */
          maxTokens: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000 })),
          /** the Graph Creator's rounds of questions before the defaults of what is still open apply */
          maxCreationRounds: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
          /** the Graph Creator's routes back after a failed validation check */
          maxCreationRoutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, description: "an org's rules for its employees' tool calls" },
);
export type OrgPolicy = Static<typeof OrgPolicy>;

/** Why the registry refused a call without acting: an effect's error code, an event's reason. */
export const RefusalCodes = [
  'scope_denied',
  'policy_denied',
  'quiet_hours',
  'budget_exceeded',
  'rate_limited',
  'circuit_open',
] as const;
export type RefusalCode = (typeof RefusalCodes)[number];

/** `GET/PUT /v1/orgs/:orgId/policy`: the org named in the path. */
export const OrgPolicyParams = Type.Object({ orgId: Id }, { additionalProperties: false });
export type OrgPolicyParams = Static<typeof OrgPolicyParams>;

/** An org's policy as the admin API answers it; `updatedAt` null while the org has set none. */
export const OrgPolicyView = Type.Object(
  {
    orgId: Id,
    policy: OrgPolicy,
    updatedAt: Type.Union([Type.String({ format: 'date-time', maxLength: 40 }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type OrgPolicyView = Static<typeof OrgPolicyView>;
