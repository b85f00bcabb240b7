import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { FactCollector } from '@hireloop/fact-stream/testing';
import { createKafka, createLogger, createPool } from '@hireloop/platform';
import { repoRoot } from '@hireloop/platform/testing';
import { type EmployeeGraphSpec, Topics } from '@hireloop/schemas';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { refundsEmployee } from './fixtures/refunds-employee';
import { registerEmployee, runIntent } from './runtime-harness';

const worker = fileURLToPath(new URL('./fixtures/run-worker.ts', import.meta.url));

/** Three steps one after the other: the worker dies inside the second. */
function chain(): EmployeeGraphSpec {
  const spec = refundsEmployee(`emp-${randomUUID()}`);
  const flow = spec.workflows[0] as EmployeeGraphSpec['workflows'][number];
  flow.steps = [
    {
      id: 'first',
      capabilityId: 'slack.post_message',
      purpose: 'Say a refund starts',
      inputs: { channel: { value: '#finance' }, text: { from: 'trigger', path: 'subject' } },
      risk: 'low',
      dependsOn: [],
    },
    {
      id: 'second',
      capabilityId: 'zendesk.reply_ticket',
      purpose: 'Reply',
      inputs: { ticketId: { from: 'trigger', path: 'ticketId' }, body: { value: 'On it.' } },
      risk: 'low',
      dependsOn: ['first'],
    },
    {
      id: 'third',
      capabilityId: 'stripe.refund_payment',
      purpose: 'Refund',
      inputs: { paymentId: { from: 'trigger', path: 'paymentId' } },
      risk: 'low',
      dependsOn: ['second'],
    },
  ];
  return spec;
}

describe('a worker SIGKILLed inside execute', () => {
  const pool = createPool(inject('databaseUrl'));
  const log = createLogger('run-crash-test', 'silent');
  const collector = new FactCollector(
    createKafka({ clientId: 'run-crash-test', brokers: inject('kafkaBrokers'), log }),
    inject('topicPrefix'),
    [Topics.executionResult],
  );
  beforeAll(() => collector.start());
  afterAll(async () => {
    await collector.stop();
    await pool.end();
  });

  const launch = (intentJson: string, mode: 'block' | 'run') => {
    const lines: string[] = [];
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        worker,
        inject('databaseUrl'),
        inject('kafkaBrokers').join(','),
        inject('topicPrefix'),
        intentJson,
        mode,
      ],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    child.stdout?.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean)));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    return { child, lines, exited };
  };

  it('the restarted run completes and repeats no recorded effect', async () => {
    const spec = chain();
    await registerEmployee(pool, spec);
    const id = randomUUID();
    const intent = JSON.stringify(
      runIntent(id, spec.employeeId, 'refunds', { subject: 'Refund', ticketId: 'T-7', paymentId: 'pi_7' }),
    );

    const first = launch(intent, 'block');
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (!first.lines.includes('in-execute')) return;
        clearInterval(timer);
        resolve();
      }, 20);
      void first.exited.then((code) => {
        clearInterval(timer);
        reject(new Error(`the worker exited (${code}) before execute`));
      });
    });
    first.child.kill('SIGKILL');
    await first.exited;
    const before = await pool.query('SELECT step_id, at FROM tool_effects WHERE execution_id = $1', [id]);
    expect(before.rows.map((r) => r.step_id)).toEqual(['first']);

    // the start is redelivered to a new worker
    const second = launch(intent, 'run');
    expect(await second.exited).toBe(0);
    expect(second.lines.filter((l) => l.startsWith('called '))).toEqual(['called second', 'called third']);
    const result = await collector.until(() => collector.of('ExecutionResult', (r) => r.executionId === id)[0], 'result');
    expect(result.status).toBe('completed');
    expect(result.output?.steps?.map((s) => s.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    const after = await pool.query('SELECT step_id, at FROM tool_effects WHERE execution_id = $1 ORDER BY at', [id]);
    expect(after.rows.map((r) => r.step_id)).toEqual(['first', 'second', 'third']);
    expect(after.rows[0].at).toEqual(before.rows[0].at);
  }, 120_000);
});
