import { readFileSync } from 'node:fs';
import { builtInCatalog } from '@hireloop/schemas';
import { MemorySaver } from '@langchain/langgraph';
import { OfflineAnalyst } from '../src/analyst/offline';
import { scriptedAnswer } from '../src/answerer';
import { driveCreation } from '../src/creation/drive';
import { offlineCreationAnalyst } from '../src/creation/sources';

const file = process.argv[2] as string;
const golden = file.endsWith('.json')
  ? JSON.parse(readFileSync(file, 'utf8'))
  : {
      jobDescription: file,
      org: {
        connected: [
          'gmail',
          'google-calendar',
          'slack',
          'hubspot',
          'zendesk',
          'jira',
          'google-drive',
          'notion',
          'schedule',
          'webhook',
          'http',
        ],
      },
    };
const catalog = { capabilities: builtInCatalog.capabilities, triggers: builtInCatalog.triggers, connected: golden.org.connected };
const run = await driveCreation(
  new MemorySaver(),
  { analyst: offlineCreationAnalyst(new OfflineAnalyst()), catalog: { forOrg: async () => catalog } },
  { executionId: 'x', orgId: 'o', jobDescription: golden.jobDescription },
  (p) => {
    const a = scriptedAnswer(p);
    if (p.messages[0]?.includes('workflow(s)')) console.log('REVIEW:', p.messages[0]);
    else console.log('PROMPT', JSON.stringify({ m: p.messages, o: p.options, q: p.questions }), '=>', JSON.stringify(a));
    return a;
  },
);
console.log(
  JSON.stringify(
    run.state.workflows.map((w) => ({ id: w.id, hint: w.triggerHint, steps: w.steps.map((s) => s.text) })),
    null,
    1,
  ),
);
console.log(JSON.stringify(run.employee?.gaps, null, 1));
