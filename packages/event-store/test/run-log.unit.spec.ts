import { describe, expect, it } from 'vitest';
import { foldRunLog, formatRunLog, type RunLogRows } from '../src/run-log';

const nothing: RunLogRows = {
  statuses: [],
  failures: [],
  calls: [],
  facts: { prompts: 0, requested: 0, granted: 0, rejected: 0, budget: 0 },
  loops: { creations: 0, total: 0, max: null, routes: [] },
  perExecution: { executions: 0, calls: 0, max: null },
  durations: { finished: 0, average: null, p50: null, max: null },
  tokens: { creations: 0, total: 0, max: null },
};

describe('the run log, folded from its rows', () => {
  it('given no executions, every count is 0 and every average is absent (never NaN)', () => {
    const log = foldRunLog({ orgId: 'o' }, nothing);
    expect(log.executions).toEqual({ total: 0, running: 0, waiting: 0, completed: 0, cancelled: 0, failed: 0 });
    expect(log.loops).toEqual({ creations: 0, perExecution: null, max: null, routesAfterFailedChecks: [] });
    expect(log.budget).toEqual({
      exceeded: 0,
      toolCallsPerExecution: null,
      maxToolCalls: null,
      tokensPerCreation: null,
      maxTokens: null,
    });
    expect(log.durationSeconds).toEqual({ finished: 0, average: null, p50: null, max: null });
  });

  it('given tool-call outcomes, the refusals are the rails’ reasons among them, and nothing else', () => {
    const log = foldRunLog(
      { orgId: 'o', employeeId: 'e', since: '2026-11-24T00:00:00Z' },
      {
        ...nothing,
        calls: [
          { code: 'succeeded', n: 5 },
          { code: 'quiet_hours', n: 2 },
          { code: 'server_error', n: 1 },
          { code: 'rate_limited', n: 1 },
        ],
      },
    );
    expect(log.toolCalls.total).toBe(9);
    expect(log.refusals).toEqual([
      { code: 'quiet_hours', count: 2 },
      { code: 'rate_limited', count: 1 },
    ]);
    expect(log).toMatchObject({ orgId: 'o', employeeId: 'e', since: '2026-11-24T00:00:00Z' });
  });

  it('given loops and durations, averages are rounded and Postgres numerics read as numbers', () => {
    const log = foldRunLog(
      { orgId: 'o' },
      {
        ...nothing,
        loops: { creations: 3, total: 7, max: 4, routes: [{ code: 'inputs_bound -> ask', n: 2 }] },
        perExecution: { executions: 3, calls: 10, max: 6 },
        durations: { finished: 3, average: '1.23456', p50: '1', max: 2.0004 },
        tokens: { creations: 3, total: 5_000, max: 2_500 },
      },
    );
    expect(log.loops).toEqual({
      creations: 3,
      perExecution: 2.33,
      max: 4,
      routesAfterFailedChecks: [{ code: 'inputs_bound -> ask', count: 2 }],
    });
    expect(log.budget).toEqual({
      exceeded: 0,
      toolCallsPerExecution: 3.33,
      maxToolCalls: 6,
      tokensPerCreation: 1666.67,
      maxTokens: 2_500,
    });
    expect(log.durationSeconds).toEqual({ finished: 3, average: 1.235, p50: 1, max: 2 });
  });

  it('prints one line per figure, naming the scope', () => {
    const text = formatRunLog(
      foldRunLog({ orgId: 'acme', employeeId: 'graph-creator' }, { ...nothing, calls: [{ code: 'policy_denied', n: 1 }] }),
    );
    expect(text.split('\n')[0]).toBe('run log (org acme, employee graph-creator)');
    expect(text).toContain('refusals          policy_denied 1');
    expect(text).toContain('prompts asked     0');
    expect(text).toContain('- tokens per creation, at most -');
  });
});
