import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerOf, uid } from './fixtures';
import { type Harness, harness } from './harness';

describe('GET /v1/metrics/executions (app.inject, real Postgres)', () => {
  let h: Harness;
  let app: FastifyInstance;
  const org = uid('org');
  const caller = { userId: 'ada', orgId: org };

  const execution = async (
    status: string,
    employeeId: string,
    code?: string,
    result?: unknown,
    endedAt = '2026-11-24T10:00:00Z',
  ) => {
    const id = uid('x');
    await h.pool.query(
      `INSERT INTO executions (execution_id, org_id, employee_id, status, error, result, created_at, updated_at, last_seq)
       VALUES ($1, $2, $3, $4, $5, $6, '2026-11-24T10:00:00Z', $7, 0)`,
      [
        id,
        org,
        employeeId,
        status,
        code ? JSON.stringify({ code, message: code }) : null,
        result ? JSON.stringify(result) : null,
        endedAt,
      ],
    );
    return id;
  };
  const fact = async (executionId: string, type: 'HILPrompt' | 'ExecutionEvent', body: Record<string, string>) =>
    h.pool.query(
      `INSERT INTO facts (id, topic, type, org_id, execution_id, payload, ts, hash)
       VALUES (gen_random_uuid(), 't', $1, $2, $3, $4, now(), 'h')`,
      [type, org, executionId, JSON.stringify({ type, executionId, ...body })],
    );
  const effect = async (executionId: string, status: string, code?: string) =>
    h.pool.query(
      `INSERT INTO tool_effects (idempotency_key, execution_id, org_id, step_id, capability_id, args, status, error, at)
       VALUES ($1, $2, $3, 's', 'slack.post_message', '{}', $4, $5, '2026-11-24T10:00:00Z')`,
      [uid('k'), executionId, org, status, code ? JSON.stringify({ code, message: code }) : null],
    );

  beforeAll(async () => {
    h = await harness();
    app = await h.build();
    const a = await execution('completed', 'emp-a', undefined, undefined, '2026-11-24T10:00:04Z');
    await effect(a, 'succeeded');
    await effect(a, 'succeeded');
    // a step not run (its condition did not hold) and one its approver rejected: no calls
    await effect(a, 'skipped', 'condition_false');
    await effect(a, 'rejected', 'rejected');
    await fact(a, 'HILPrompt', { promptId: 'p1' });
    await fact(a, 'HILPrompt', { promptId: 'p1' }); // the same prompt published again: asked once
    await fact(a, 'ExecutionEvent', { event: 'approval_requested' });
    await fact(a, 'ExecutionEvent', { event: 'approval_granted' });
    await fact(a, 'ExecutionEvent', { event: 'budget_exceeded' });
    const trace = [{ attempt: 1, failedCheck: 'inputs_bound', routedTo: 'ask', matchedRules: [] }];
    await execution(
      'completed',
      'graph-creator',
      undefined,
      { employee: { history: { iterations: 3, promptsAsked: 2, routingTrace: trace, tokensUsed: 1_200 } } },
      '2026-11-24T10:00:10Z',
    );
    const b = await execution('failed', 'emp-a', 'circuit_open');
    await effect(b, 'failed', 'circuit_open');
    const c = await execution('failed', 'emp-b', 'policy_denied');
    await effect(c, 'failed', 'policy_denied');
    await execution('running', 'emp-b');
  });
  afterAll(async () => {
    await h.close();
  });

  const get = (query = '', who = caller) =>
    app.inject({ method: 'GET', url: `/v1/metrics/executions${query}`, headers: bearerOf(who) });

  it("counts the org's executions by status, failures by reason and tool calls by outcome", async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      orgId: org,
      since: null,
      employeeId: null,
      executions: { total: 5, running: 1, waiting: 0, completed: 2, cancelled: 0, failed: 2 },
      failures: [
        { code: 'circuit_open', count: 1 },
        { code: 'policy_denied', count: 1 },
      ],
      toolCalls: {
        total: 4,
        byOutcome: [
          { code: 'succeeded', count: 2 },
          { code: 'circuit_open', count: 1 },
          { code: 'policy_denied', count: 1 },
        ],
      },
      refusals: [
        { code: 'circuit_open', count: 1 },
        { code: 'policy_denied', count: 1 },
      ],
      prompts: { asked: 1 },
      approvals: { requested: 1, granted: 1, rejected: 0 },
      loops: { creations: 1, perExecution: 3, max: 3, routesAfterFailedChecks: [{ code: 'inputs_bound -> ask', count: 1 }] },
      budget: { exceeded: 1, toolCallsPerExecution: 1.33, maxToolCalls: 2, tokensPerCreation: 1200, maxTokens: 1200 },
      durationSeconds: { finished: 4, average: 3.5, p50: 2, max: 10 },
    });
  });

  it('narrows to one employee, and to a time', async () => {
    const one = (await get('?employeeId=emp-a')).json();
    expect(one.executions).toMatchObject({ total: 2, completed: 1, failed: 1 });
    expect(one.toolCalls).toEqual({
      total: 3,
      byOutcome: [
        { code: 'succeeded', count: 2 },
        { code: 'circuit_open', count: 1 },
      ],
    });
    const later = (await get('?since=2026-11-24T11:00:00Z')).json();
    expect(later.executions.total).toBe(0);
    expect(later.toolCalls.total).toBe(0);
  });

  it('another org sees only its own; a bad query → 400 naming the field', async () => {
    const other = (await get('', { userId: 'eve', orgId: uid('org') })).json();
    expect(other.executions.total).toBe(0);
    const bad = await get('?since=yesterday');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'bad_request', field: 'since' });
  });

  it('a date that reads as one but names no instant Postgres holds (a day not in its month, year 0, an offset past ±15:59) → 400 naming since, never a 500', async () => {
    for (const since of ['2026-02-30T00:00:00Z', '0000-01-01T00:00:00Z', '2026-11-30T10:00:00%2B23:59']) {
      const res = await get(`?since=${since}`);
      expect(res.statusCode, since).toBe(400);
      expect(res.json(), since).toMatchObject({ code: 'bad_request', field: 'since' });
    }
    expect((await get('?since=2024-02-29T10:00:00%2B05:30')).statusCode).toBe(200);
  });
});
