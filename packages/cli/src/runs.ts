import { formatRunLog, readRunLog } from '@hireloop/event-store';
import { createPool, loadPlatformConfig } from '@hireloop/platform';
import { ExecutionMetricsQuery } from '@hireloop/schemas';
import { Value } from '@sinclair/typebox/value';
import type { Command } from 'commander';

interface StatsOptions {
  org: string;
  employee?: string;
  since?: string;
  json?: boolean;
}

/** `hireloop runs stats`: the run log of an org (GET /v1/metrics/executions's numbers, from the same query). */
export function registerRuns(program: Command): void {
  const runs = program.command('runs').description('the run log: how executions, creations and runs alike, went');
  runs
    .command('stats')
    .description('loops, routes after failed checks, prompts, approvals, refusals, budget use and duration, per org or employee')
    .requiredOption('--org <orgId>', 'the organisation')
    .option('--employee <employeeId>', 'only this employee’s runs (graph-creator: the creations)')
    .option('--since <iso>', 'only executions started at or after this instant (ISO-8601)')
    .option('--json', 'print the answer of GET /v1/metrics/executions instead of text')
    .action(async (options: StatsOptions) => {
      const query = {
        ...(options.since !== undefined ? { since: options.since } : {}),
        ...(options.employee !== undefined ? { employeeId: options.employee } : {}),
      };
      const bad = [...Value.Errors(ExecutionMetricsQuery, query)][0];
      if (bad) throw new Error(`--${bad.path === '/since' ? 'since' : 'employee'}: ${bad.message}`);
      const pool = createPool(loadPlatformConfig().databaseUrl, 2);
      try {
        const log = await readRunLog(pool, { ...query, orgId: options.org });
        console.log(options.json ? JSON.stringify(log, null, 2) : formatRunLog(log));
      } finally {
        await pool.end();
      }
    });
}
