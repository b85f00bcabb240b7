import { builtInCatalog } from '@hireloop/schemas';
import { matchWorkflow } from '../src/analyst/match';
import { analyseJob } from '../src/analyst/segment';
import { parseClause, unknownProductsIn } from '../src/analyst/text';

const a = analyseJob(process.argv[2] as string);
const catalog = {
  capabilities: builtInCatalog.capabilities,
  triggers: builtInCatalog.triggers,
  connected: ['gmail', 'slack', 'http', 'schedule', 'webhook'],
};
for (const wf of a.workflows) {
  console.log(
    JSON.stringify(wf.steps.map((s) => [s.text, parseClause(s.text).core, unknownProductsIn(parseClause(s.text).core)])),
  );
  console.log(JSON.stringify(matchWorkflow(wf, catalog).steps));
}
