import {
  checkChain,
  type Difference,
  executionTimeline,
  rebuildProjections,
  type TimelineEntry,
  verifyProjections,
} from '@hireloop/event-store';
import { createPool, loadPlatformConfig, type Pool } from '@hireloop/platform';
import type { Command } from 'commander';

interface ReplayOptions {
  verify?: boolean;
  checkChain?: boolean;
  execution?: string;
}

const KEY_COLUMN: Record<Difference['table'], string> = {
  executions: 'execution_id',
  conversation_executions: 'execution_id',
  employees: 'employee_id',
  employee_activations: 'employee_id',
  execution_effects: 'idempotency_key',
  org_policies: 'org_id',
};

/** A plain text table: a header, a rule, one line per row. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export const formatTimeline = (entries: readonly TimelineEntry[]): string =>
  formatTable(
    ['time', 'topic', 'type', 'who', 'summary'],
    entries.map((e) => [e.ts, e.topic, e.type, e.who, e.summary]),
  );

async function verify(pool: Pool): Promise<boolean> {
  const report = await verifyProjections(pool);
  const d = report.difference;
  if (!d) {
    console.log(
      `replay --verify: projections match the facts (${report.facts} facts; executions ${report.executions}, ` +
        `conversation_executions ${report.conversationExecutions}, employees ${report.employees}, ` +
        `employee_activations ${report.activations}, execution_effects ${report.effects}, ` +
        `org_policies ${report.policies}; ${report.ms} ms)`,
    );
    return true;
  }
  console.error(
    [
      `replay --verify: ${d.table} differs at ${KEY_COLUMN[d.table]}=${d.key} (${d.count} row${d.count === 1 ? '' : 's'} of ${d.table} differ)`,
      `  columns: ${d.columns.join(', ')}`,
      `  live:    ${d.live ?? '(no row)'}`,
      `  replay:  ${d.replay ?? '(no row)'}`,
    ].join('\n'),
  );
  return false;
}

async function chain(pool: Pool): Promise<boolean> {
  const report = await checkChain(pool);
  const b = report.broken;
  if (!b) {
    console.log(`replay --check-chain: ${report.facts} facts in ${report.chains} chains, every chain intact (${report.ms} ms)`);
    return true;
  }
  console.error(
    `replay --check-chain: chain ${b.chain} broken at seq ${b.seq}, fact ${b.id}: ${b.reason}` +
      (report.brokenCount > 1 ? ` (${report.brokenCount} facts break their chain)` : ''),
  );
  return false;
}

async function timeline(pool: Pool, executionId: string): Promise<boolean> {
  const entries = await executionTimeline(pool, executionId);
  if (entries.length === 0) {
    console.error(`replay --execution: no facts of execution ${executionId}`);
    return false;
  }
  console.log(formatTimeline(entries));
  return true;
}

async function rebuild(pool: Pool): Promise<boolean> {
  const r = await rebuildProjections(pool);
  console.log(
    `replay: rebuilt executions (${r.executions}), conversation_executions (${r.conversationExecutions}) and employees ` +
      `(${r.employees}) from ${r.facts} facts in ${r.ms} ms (${r.factsPerSecond} facts/s)`,
  );
  return true;
}

/** `hireloop replay`: rebuild the projections from `facts`, verify them, check the hash chain, or print a timeline. */
export function registerReplay(program: Command): void {
  program
    .command('replay')
    .description('rebuild every projection from the facts alone (or, with an option, only check or show)')
    .option('--verify', 'rebuild into temporary tables and compare with the live projections; exit 1 naming the first difference')
    .option('--check-chain', 'recompute every hash chain; exit 1 naming the first fact that breaks one')
    .option('--execution <id>', "print one execution's timeline: time, topic, type, who, summary")
    .action(async (options: ReplayOptions) => {
      const config = loadPlatformConfig();
      const pool = createPool(config.databaseUrl, 2);
      try {
        let ok = true;
        if (options.execution !== undefined) ok = (await timeline(pool, options.execution)) && ok;
        if (options.verify) ok = (await verify(pool)) && ok;
        if (options.checkChain) ok = (await chain(pool)) && ok;
        if (options.execution === undefined && !options.verify && !options.checkChain) ok = await rebuild(pool);
        if (!ok) process.exitCode = 1;
      } finally {
        await pool.end();
      }
    });
}
