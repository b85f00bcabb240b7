// Scores the offline analyst on a golden set:
//   node --import tsx services/graph-creator/src/analyst/eval-offline.ts [dir] [--verbose]
import { resolve } from 'node:path';
import { builtInCatalog } from '@hireloop/schemas';
import { loadGolden, offlineSpec, scoreCase, totals } from './evaluate';

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const dir = resolve(args.find((a) => !a.startsWith('--')) ?? 'golden');
const cases = loadGolden(dir);
const f = (n: number): string => n.toFixed(2);

console.log(`golden set: ${dir} (${cases.length} cases)`);
console.log(`${'case'.padEnd(34)} capR  capP  trigR miR   gaps wf`);
const scores = cases.map((c) => {
  const spec = offlineSpec(c.jobDescription, builtInCatalog, c.org.connected);
  const s = scoreCase(c, spec);
  const bounds = `${s.workflows} [${c.expect.minWorkflows}-${c.expect.maxWorkflows}]${s.workflowsInBounds ? '' : ' OUT'}`;
  console.log(
    `${c.id.padEnd(34)} ${f(s.capabilityRecall)}  ${f(s.capabilityPrecision)}  ${f(s.triggerRecall)}  ${f(s.missingIntegrationRecall)}  ${s.gapCategoriesPresent ? 'ok  ' : 'MISS'} ${bounds}`,
  );
  if (verbose) {
    const m = s.missed;
    if (m.capabilities.length) console.log(`    missed capabilities: ${m.capabilities.join(', ')}`);
    if (m.unexpected.length) console.log(`    unexpected capabilities: ${m.unexpected.join(', ')}`);
    if (m.triggers.length) console.log(`    missed triggers: ${m.triggers.join(', ')}`);
    if (m.missingIntegrations.length) console.log(`    missed missing integrations: ${m.missingIntegrations.join(', ')}`);
    if (m.gapCategories.length) console.log(`    missed gap categories: ${m.gapCategories.join(', ')}`);
  }
  return s;
});
const t = totals(cases, scores);
console.log(
  `overall (mean of cases)   capability recall ${f(t.macro.capabilityRecall)}  precision ${f(t.macro.capabilityPrecision)}  trigger recall ${f(t.macro.triggerRecall)}  missing-integration recall ${f(t.macro.missingIntegrationRecall)}`,
);
console.log(
  `overall (pooled items)    capability recall ${f(t.micro.capabilityRecall)}  precision ${f(t.micro.capabilityPrecision)}  trigger recall ${f(t.micro.triggerRecall)}  missing-integration recall ${f(t.micro.missingIntegrationRecall)}`,
);
console.log(
  `gap categories present in ${t.gapCategoriesPresent}/${t.cases} cases; workflow count within bounds in ${t.workflowsInBounds}/${t.cases} cases`,
);
