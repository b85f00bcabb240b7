/**
 * `make eval [GOLDEN=<dir>]`: runs every golden job description through the creation graph (real
 * PostgresSaver, the offline analyst or the configured model, prompts answered by the scripted
 * answerer) and prints per case and overall: capability recall and precision, trigger recall,
 * missing-integration gap recall, gap-category recall, workflows found and how many have no step,
 * prompts asked, converged or not.
 */
import { fileURLToPath } from 'node:url';
import { configuredAnalyst, llmConfigFromEnv, loadGolden, OfflineAnalyst } from '@hireloop/analyst';
import { createCheckpointer, createLogger, createPool, loadPlatformConfig, migrate, withDatabase } from '@hireloop/platform';
import { Command } from 'commander';
import { evaluateGolden } from './evaluation';

const program = new Command('eval')
  .option('--golden <dir>', 'folder of golden cases', fileURLToPath(new URL('../../../golden', import.meta.url)))
  .option('--json', 'print the figures as JSON')
  .parse();
const options = program.opts<{ golden: string; json?: boolean }>();

const config = loadPlatformConfig();
const databaseUrl = withDatabase(config.databaseUrl, process.env.EVAL_DATABASE ?? 'hireloop_eval');
await migrate(databaseUrl);
const pool = createPool(databaseUrl);
const checkpointer = createCheckpointer(pool);
const log = createLogger('eval', 'warn');
const analyst = configuredAnalyst(new OfflineAnalyst(), llmConfigFromEnv(), log);

const cases = loadGolden(options.golden);
const run = await evaluateGolden(cases, checkpointer, analyst);
await pool.end();

const rows = run.cases;
const sum = run.totals;
const pct = (n: number) => n.toFixed(2);
if (options.json) {
  console.log(JSON.stringify({ cases: rows, totals: sum }, null, 2));
} else {
  console.log(`golden: ${options.golden} (${cases.length} cases)\n`);
  console.log(
    'case                                   cap.recall  cap.prec  trig.recall  missing.recall  gap.recall  workflows  empty  prompts  converged',
  );
  for (const { score, prompts, converged } of rows) {
    console.log(
      `${score.id.padEnd(38)} ${pct(score.capabilityRecall).padStart(10)} ${pct(score.capabilityPrecision).padStart(9)} ${pct(score.triggerRecall).padStart(12)} ${pct(score.missingIntegrationRecall).padStart(15)} ${pct(score.gapCategoryRecall).padStart(11)} ${String(score.workflows).padStart(10)} ${String(score.emptyWorkflows).padStart(6)} ${String(prompts).padStart(8)} ${String(converged).padStart(10)}`,
    );
    const missed = Object.entries(score.missed).filter(([, v]) => v.length > 0);
    if (missed.length > 0) console.log(`    ${missed.map(([k, v]) => `${k}: ${v.join(', ')}`).join('; ')}`);
  }
  const prompts = rows.map((r) => r.prompts);
  console.log(
    `\noverall (mean of cases): capability recall ${pct(sum.macro.capabilityRecall)}, precision ${pct(sum.macro.capabilityPrecision)}, ` +
      `trigger recall ${pct(sum.macro.triggerRecall)}, missing-integration recall ${pct(sum.macro.missingIntegrationRecall)}, ` +
      `gap-category recall ${pct(sum.macro.gapCategoryRecall)}`,
  );
  console.log(
    `overall (pooled):        capability recall ${pct(sum.micro.capabilityRecall)}, precision ${pct(sum.micro.capabilityPrecision)}, ` +
      `trigger recall ${pct(sum.micro.triggerRecall)}, missing-integration recall ${pct(sum.micro.missingIntegrationRecall)}, ` +
      `gap-category recall ${pct(sum.micro.gapCategoryRecall)}`,
  );
  console.log(
    `prompts per creation: max ${Math.max(...prompts)}, mean ${pct(prompts.reduce((a, b) => a + b, 0) / Math.max(1, prompts.length))}; ` +
      `converged ${rows.filter((r) => r.converged).length}/${rows.length}; gap categories ${sum.gapCategoriesPresent}/${sum.cases}; ` +
      `workflows in bounds ${sum.workflowsInBounds}/${sum.cases}; cases with an empty workflow ${sum.casesWithEmptyWorkflow}/${sum.cases}; mean ${pct(rows.reduce((a, r) => a + r.ms, 0) / Math.max(1, rows.length))} ms per creation`,
  );
}
