import type { Logger } from '@hireloop/platform';
import { describeErrors, validate } from '@hireloop/schemas';
import { ChatOpenAI } from '@langchain/openai';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import {
  type CapabilityMatch,
  type Catalog,
  type DraftWorkflow,
  Finding,
  JobAnalysis,
  CapabilityMatch as MatchSchema,
} from '../analyst/types';
import type { AnalystNotes, CreationAnalyst } from '../creation/ports';

export interface LlmConfig {
  baseUrl: string;
  model: string;
  apiKey: string;
  timeoutMs: number;
}

/** `LLM_BASE_URL`, `LLM_MODEL`, `LLM_API_KEY`: a model is used only when the first two are set. */
export function llmConfigFromEnv(env: Record<string, string | undefined> = process.env): LlmConfig | undefined {
  if (!env.LLM_BASE_URL || !env.LLM_MODEL) return undefined;
  return {
    baseUrl: env.LLM_BASE_URL,
    model: env.LLM_MODEL,
    apiKey: env.LLM_API_KEY ?? 'unused',
    timeoutMs: Number(env.LLM_TIMEOUT_MS ?? 30_000),
  };
}

const Findings = Type.Object({ findings: Type.Array(Finding, { maxItems: 20 }) }, { additionalProperties: false });

type Attempt<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * The analyst port on an OpenAI-compatible chat model: asked for JSON, the reply validated by the
 * same TypeBox schemas as the offline analyst's. A reply that fails validation is retried once
 * (with the errors); then the offline analyst answers and the fallback is noted.
 */
export class LlmAnalyst implements CreationAnalyst {
  private readonly model: ChatOpenAI;

  constructor(
    config: LlmConfig,
    private readonly offline: CreationAnalyst,
    private readonly log: Logger,
  ) {
    this.model = new ChatOpenAI({
      model: config.model,
      apiKey: config.apiKey,
      configuration: { baseURL: config.baseUrl },
      temperature: 0,
      maxRetries: 0,
      timeout: config.timeoutMs,
    });
  }

  async analyse(jobDescription: string, notes?: AnalystNotes) {
    const reply = await this.ask(
      JobAnalysis,
      'Break the job description into workflows: one per responsibility, each with what starts it (triggerHint kind event|schedule|manual|unknown and the words) and its ordered steps (id, text, action as "verb object"). Ids: wf-1, wf-2…, steps s1, s2…. Answer with JSON {workflows, confidence}.',
      jobDescription,
    );
    return this.orOffline('analyse', reply, notes, () => this.offline.analyse(jobDescription, notes));
  }

  async matchCapabilities(workflow: DraftWorkflow, catalog: Catalog, notes?: AnalystNotes) {
    const capabilities = catalog.capabilities.map((c) => `${c.id}: ${c.description}`).join('\n');
    const triggers = catalog.triggers.map((t) => `${t.id}: ${t.description}`).join('\n');
    const reply = await this.ask(
      MatchSchema,
      `Map each step of the workflow to one capability id and the workflow to one trigger id with its parameters. Use only these ids.\nCapabilities:\n${capabilities}\nTriggers:\n${triggers}\nAnswer with JSON {workflowId, trigger:{triggerId, params, confidence, alternatives}, steps:[{stepId, capabilityId, providerId, confidence, candidates}]}.`,
      JSON.stringify(workflow),
    );
    const known = new Set(catalog.capabilities.map((c) => c.id));
    const usable: Attempt<CapabilityMatch> =
      reply.ok &&
      reply.value.workflowId === workflow.id &&
      reply.value.steps.every((s) => s.capabilityId === null || known.has(s.capabilityId))
        ? reply
        : reply.ok
          ? { ok: false, reason: 'the reply named a workflow or capability that does not exist' }
          : reply;
    return this.orOffline('matchCapabilities', usable, notes, () => this.offline.matchCapabilities(workflow, catalog, notes));
  }

  async findings(workflow: DraftWorkflow, match: CapabilityMatch, notes?: AnalystNotes) {
    const reply = await this.ask(
      Findings,
      'List what is underspecified (underspecified_task), what organisational context is missing (organizational_context) and what is ambiguous about how the workflow starts (workflow_ambiguity). For each: category, workflowId, stepId?, excerpt, reason, question, blocking, default (for non-blocking). Answer with JSON {findings}.',
      JSON.stringify({ workflow, match }),
    );
    return this.orOffline('findings', reply.ok ? { ok: true, value: reply.value.findings } : reply, notes, () =>
      this.offline.findings(workflow, match, notes),
    );
  }

  private async orOffline<T>(
    what: string,
    reply: Attempt<T>,
    notes: AnalystNotes | undefined,
    offline: () => Promise<T>,
  ): Promise<T> {
    if (reply.ok) return reply.value;
    this.log.warn({ what, reason: reply.reason }, 'model reply unusable; the offline analyst answers');
    notes?.push(`${what}: ${reply.reason}`.slice(0, 400));
    return offline();
  }

  /** Two attempts at a reply that is JSON and valid against `schema`. */
  private async ask<S extends TSchema>(schema: S, instructions: string, input: string): Promise<Attempt<Static<S>>> {
    const messages: [string, string][] = [
      ['system', `${instructions}\nReply with one JSON object and nothing else.`],
      ['user', input],
    ];
    let reason = 'no reply';
    for (let attempt = 1; attempt <= 2; attempt++) {
      try {
        const reply = await this.model.invoke(messages, { response_format: { type: 'json_object' } });
        const text = typeof reply.content === 'string' ? reply.content : JSON.stringify(reply.content);
        const parsed: unknown = JSON.parse(text);
        const result = validate(schema, parsed);
        if (result.ok) return { ok: true, value: result.value };
        reason = `invalid reply: ${describeErrors(result.errors)}`;
      } catch (error) {
        reason = `model call failed: ${(error as Error).message}`;
      }
      messages.push(['user', `Your previous reply was not usable (${reason.slice(0, 500)}). Reply again with valid JSON only.`]);
    }
    return { ok: false, reason };
  }
}
