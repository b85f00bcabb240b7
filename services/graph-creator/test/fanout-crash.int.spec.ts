import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { OfflineAnalyst } from '@hireloop/analyst';
import { createCheckpointer, createPool } from '@hireloop/platform';
import { repoRoot } from '@hireloop/platform/testing';
import { builtInCatalog, devOrgConnections } from '@hireloop/schemas';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { scriptedAnswer } from '../src/answerer';
import { driveCreation } from '../src/creation/drive';

const JOB =
  'Customer Onboarding Specialist. When a deal in HubSpot moves to Closed Won, create an onboarding folder in Google Drive and send a welcome email. ' +
  'Every Friday at 4pm, post a summary of new customers in #sales on Slack. When a new Zendesk ticket arrives from a new customer, reply to it.';

describe('a worker killed in the middle of the capability-matching fan-out', () => {
  const pool = createPool(inject('databaseUrl'));
  const checkpointer = createCheckpointer(pool);
  afterAll(() => pool.end());

  const catalog = {
    capabilities: builtInCatalog.capabilities,
    triggers: builtInCatalog.triggers,
    connected: [...devOrgConnections],
  };
  const options = { analyst: new OfflineAnalyst(), catalog: { forOrg: async () => catalog } };
  const answer = (p: Parameters<typeof scriptedAnswer>[0]) => scriptedAnswer(p);

  it('resumes from the last checkpoint and produces the same spec as an uninterrupted run', async () => {
    const crashed = randomUUID();
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(new URL('./fixtures/fanout-crash.ts', import.meta.url)),
        inject('databaseUrl'),
        crashed,
        JOB,
      ],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (d: Buffer) => d.toString().includes('in-fanout') && resolve());
      child.once('exit', (code) => reject(new Error(`the worker exited (${code}) before the fan-out`)));
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    // the checkpoint written before the fan-out is there, with the branches still to run
    const before = await pool.query('SELECT count(*)::int AS n FROM langgraph.checkpoints WHERE thread_id = $1', [crashed]);
    expect(before.rows[0].n).toBeGreaterThan(0);

    const steps: string[] = [];
    const resumed = await driveCreation(
      checkpointer,
      options,
      { executionId: crashed, orgId: 'acme', jobDescription: JOB },
      answer,
      {
        durability: 'sync',
        onStep: (node) => steps.push(node),
      },
    );
    // it carried on from the fan-out: the analysis before it is not run again
    expect(steps[0]).toBe('match_workflow');
    expect(steps).not.toContain('analyse');
    const straight = await driveCreation(
      checkpointer,
      options,
      { executionId: randomUUID(), orgId: 'acme', jobDescription: JOB },
      answer,
    );

    expect(resumed.employee).not.toBeNull();
    expect(resumed.employee?.workflows.length).toBeGreaterThan(1);
    expect({ ...resumed.employee, employeeId: '' }).toEqual({ ...straight.employee, employeeId: '' });
    expect(resumed.prompts).toEqual(straight.prompts);
  }, 120_000);
});
