/** Given-state for the gateway's tests: tokens, prompts, and projection rows written straight to Postgres. */
import { randomUUID } from 'node:crypto';
import { makeFact } from '@hireloop/fact-stream';
import { type Pool, type Principal, signToken } from '@hireloop/platform';
import { builtInCatalog, type HILPrompt, inputSchemaJson } from '@hireloop/schemas';
import type { ConnectHub, OrgView } from '../src/hooks/connect-hub';

export const SECRET = 'gateway-test-secret';
export const HOOK_KEY = 'gateway-test-hook-secret-key';

/** The Connect Hub as the tests need it: acme connected to a few providers, every org sees the same triggers and the built-in catalog's tools. */
export function fakeConnectHub(views: Record<string, Partial<OrgView>> = {}): ConnectHub {
  return {
    orgView: async (orgId) => ({
      providers: views[orgId]?.providers ?? (orgId === 'acme' ? ['zendesk', 'slack', 'schedule', 'webhook', 'http'] : []),
      triggers: views[orgId]?.triggers ?? [
        {
          id: 'zendesk.new_ticket',
          providerId: 'zendesk',
          eventSchema: {
            type: 'object',
            required: ['ticket'],
            properties: {
              ticket: {
                type: 'object',
                required: ['id', 'subject'],
                properties: { id: { type: 'integer' }, subject: { type: 'string' } },
              },
            },
          },
        },
        { id: 'webhook.incoming_webhook', providerId: 'webhook' },
        { id: 'schedule.cron', providerId: 'schedule' },
        { id: 'gmail.new_email', providerId: 'gmail' },
      ],
    }),
    capabilities: async () => [...builtInCatalog.capabilities],
  };
}

export const token = (principal: Principal, expiresIn = '1h', secret = SECRET): string => signToken(principal, secret, expiresIn);

export const bearerOf = (principal: Principal, secret = SECRET): Record<string, string> => ({
  authorization: `Bearer ${token(principal, '1h', secret)}`,
});

/** A unique id for this test run (ids are shared by every test of the database). */
export const uid = (prefix: string): string => `${prefix}-${randomUUID().slice(0, 8)}`;

export function questionsPrompt(
  executionId: string,
  owner: Principal,
  conversationId: string,
  questions: { id: string; text: string; required?: boolean }[] = [
    { id: 'q1', text: 'Which team owns the inbox?', required: true },
  ],
  promptId = uid('prompt'),
): HILPrompt {
  const shape = { kind: 'questions' as const, questions };
  return makeFact(
    'HILPrompt',
    { orgId: owner.orgId, correlation: { conversationId, userId: owner.userId, executionId } },
    {
      executionId,
      promptId,
      kind: 'questions',
      messages: ['A few questions before I continue.'],
      inputSchema: inputSchemaJson(shape),
      questions,
      progress: 40,
    },
  );
}

export function optionsPrompt(
  executionId: string,
  owner: Principal,
  conversationId: string,
  promptId = uid('prompt'),
): HILPrompt {
  const options = [
    { id: 'gmail', label: 'Gmail' },
    { id: 'slack', label: 'Slack', recommended: true },
  ];
  const selectionRules = { mode: 'single' as const };
  return makeFact(
    'HILPrompt',
    { orgId: owner.orgId, correlation: { conversationId, userId: owner.userId, executionId } },
    {
      executionId,
      promptId,
      kind: 'options',
      messages: ['Where should alerts go?'],
      inputSchema: inputSchemaJson({ kind: 'options', options, selectionRules, allowedActions: ['skip'] }),
      options,
      selectionRules,
      allowedActions: ['skip'],
    },
  );
}

export interface ExecutionRow {
  executionId: string;
  owner: Principal;
  conversationId: string;
  status?: 'running' | 'waiting' | 'completed' | 'cancelled' | 'failed';
  prompt?: HILPrompt | null;
  progress?: number | null;
  phase?: string | null;
}

/** Writes the projection rows the event store's projector would write for an execution. */
export async function givenExecution(pool: Pool, row: ExecutionRow): Promise<void> {
  const status = row.status ?? (row.prompt ? 'waiting' : 'running');
  const now = new Date().toISOString();
  await pool.query(
    `INSERT INTO executions (execution_id, org_id, owner_user_id, conversation_id, employee_id, trigger_id, status, current_prompt,
       progress, phase, result, error, created_at, updated_at, last_seq)
     VALUES ($1, $2, $3, $4, 'graph-creator', $5, $6, $7, $8, $9, $10, NULL, $11, $11, 1)
     ON CONFLICT (execution_id) DO UPDATE SET status = EXCLUDED.status, current_prompt = EXCLUDED.current_prompt,
       progress = EXCLUDED.progress, phase = EXCLUDED.phase, result = EXCLUDED.result, updated_at = EXCLUDED.updated_at`,
    [
      row.executionId,
      row.owner.orgId,
      row.owner.userId,
      row.conversationId,
      uid('trigger'),
      status,
      row.prompt ? JSON.stringify(row.prompt) : null,
      row.progress ?? null,
      row.phase ?? null,
      status === 'completed' ? JSON.stringify({ summary: 'done' }) : null,
      now,
    ],
  );
  await pool.query(
    `INSERT INTO conversation_executions (execution_id, conversation_id, org_id, user_id) VALUES ($1, $2, $3, $4)
     ON CONFLICT (execution_id) DO NOTHING`,
    [row.executionId, row.conversationId, row.owner.orgId, row.owner.userId],
  );
}

/** A fact row of the event store (for the timeline), without the projector. */
export async function givenFact(pool: Pool, fact: HILPrompt, topic: string): Promise<void> {
  await pool.query(
    `INSERT INTO facts (id, topic, type, org_id, execution_id, conversation_id, payload, ts, hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'test')`,
    [
      fact.id,
      topic,
      fact.type,
      fact.orgId,
      fact.executionId,
      fact.correlation.conversationId ?? null,
      JSON.stringify(fact),
      fact.ts,
    ],
  );
}
