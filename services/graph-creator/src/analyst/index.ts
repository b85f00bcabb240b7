export { type CaseScore, GoldenCase, loadGolden, offlineSpec, SpecLike, scoreCase, type Totals, totals } from './evaluate';
export { ambiguities, orgContext, vagueness } from './findings';
export { matchStep, matchTrigger, matchWorkflow, triggerParams } from './match';
export { OfflineAnalyst } from './offline';
export type { Analyst } from './port';
export { parseSchedule } from './schedule';
export { analyseJob, splitClauses } from './segment';
export * from './types';
