import { createLogger } from '@hireloop/platform';
import { afterAll, beforeAll } from 'vitest';
import { LlmAnalyst } from '../src/llm';
import { OfflineAnalyst } from '../src/offline';
import type { Analyst } from '../src/port';
import type { CapabilityMatch, DraftWorkflow } from '../src/types';
import { analystContract, contractCatalog } from './analyst-contract';
import { FakeOpenAI, type SeenRequest } from './fake-openai';

// The same contract, run on the LLM implementation against a local OpenAI-compatible server (no
// network): its "model" answers every structured-output request with what a competent model would
// (here, the offline analyst's reading of the same input), so the suite exercises the whole path —
// the request with its JSON Schema, the reply through withStructuredOutput, validation — and the
// analyst must never need its fallback.

const model = new OfflineAnalyst();
const server = new FakeOpenAI();
let baseUrl = '';

const answer = (request: SeenRequest) => {
  const format = request.body.response_format as { json_schema?: { name?: string } } | undefined;
  const input = request.body.messages?.at(-1)?.content ?? '';
  switch (format?.json_schema?.name) {
    case 'job_analysis':
      return { content: model.analyseSync(input) };
    case 'capability_match':
      return { content: model.matchCapabilitiesSync(JSON.parse(input) as DraftWorkflow, contractCatalog) };
    case 'findings': {
      const { workflow, match } = JSON.parse(input) as { workflow: DraftWorkflow; match: CapabilityMatch };
      return { content: { findings: model.ambiguities(workflow, match) } };
    }
    default:
      return { status: 400, body: { error: { message: 'unknown schema', type: 'invalid_request_error' } } };
  }
};

/** The fallback the LLM analyst is given: it answers only what is not the model's job (ranking the catalog). */
const noFallback: Analyst = {
  analyse: () => Promise.reject(new Error('fell back: analyse')),
  matchCapabilities: () => Promise.reject(new Error('fell back: matchCapabilities')),
  findings: () => Promise.reject(new Error('fell back: findings')),
  closestCapabilities: (text, catalog, limit) => model.closestCapabilities(text, catalog, limit),
};

beforeAll(async () => {
  baseUrl = await server.start();
  server.reset([], answer);
});
afterAll(() => server.stop());

analystContract('LLM (local OpenAI-compatible server)', () => ({
  analyst: new LlmAnalyst(
    { baseUrl, model: 'contract', apiKey: 'k', timeoutMs: 5_000 },
    noFallback,
    createLogger('contract', 'silent'),
  ),
  notes: [],
}));
