import type { Logger } from '@hireloop/platform';
import { describeErrors, validate } from '@hireloop/schemas';
import { ChatOpenAI } from '@langchain/openai';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import type { Analyst, AnalystNotes, TokenMeter } from './port';
import {
  type CapabilityMatch,
  type Catalog,
  type DraftWorkflow,
  Finding,
  JobAnalysis,
  CapabilityMatch as MatchSchema,
} from './types';

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

/** A bounded retry: one more attempt with the errors of the first, then the offline analyst. */
const MAX_ATTEMPTS = 2;

/** The plain JSON Schema of a TypeBox schema (TypeBox's symbol keys dropped), as a model is given it. */
const jsonSchemaOf = (schema: TSchema): Record<string, unknown> => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;

/**
 * The analyst port on an OpenAI-compatible chat model: LangChain's structured output with the JSON
 * Schema of the same TypeBox schemas as the offline analyst's, the reply validated by them. A reply that
 * fails is retried once (with the errors); then the offline analyst answers and the fallback is noted
 * (published as the `analyst_fallback` ExecutionEvent).
 */
export class LlmAnalyst implements Analyst {
  private readonly model: ChatOpenAI;

  constructor(
    config: LlmConfig,
    private readonly offline: Analyst,
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

  async analyse(jobDescription: string, notes?: AnalystNotes, catalog?: Catalog, meter?: TokenMeter) {
    const reply = await this.ask(
      meter,
      JobAnalysis,
      'job_analysis',
      'Break the job description into workflows: one per responsibility, each with what starts it (triggerHint kind event|schedule|manual|unknown and the words) and its ordered steps (id, text, action as "verb object"). Ids: wf-1, wf-2…, steps s1, s2…. Answer with JSON {workflows, confidence}.',
      jobDescription,
    );
    return this.orOffline('analyse', reply, notes, () => this.offline.analyse(jobDescription, notes, catalog));
  }

  async matchCapabilities(workflow: DraftWorkflow, catalog: Catalog, notes?: AnalystNotes, meter?: TokenMeter) {
    const capabilities = catalog.capabilities.map((c) => `${c.id}: ${c.description}`).join('\n');
    const triggers = catalog.triggers.map((t) => `${t.id}: ${t.description}`).join('\n');
    const reply = await this.ask(
      meter,
      MatchSchema,
      'capability_match',
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

  async findings(workflow: DraftWorkflow, match: CapabilityMatch, notes?: AnalystNotes, meter?: TokenMeter) {
    const reply = await this.ask(
      meter,
      Findings,
      'findings',
      'List what is underspecified (underspecified_task), what organisational context is missing (organizational_context) and what is ambiguous about how the workflow starts (workflow_ambiguity). For each: category, workflowId, stepId?, excerpt, reason, question, blocking, default (for non-blocking). Answer with JSON {findings}.',
      JSON.stringify({ workflow, match }),
    );
    return this.orOffline('findings', reply.ok ? { ok: true, value: reply.value.findings } : reply, notes, () =>
      this.offline.findings(workflow, match, notes),
    );
  }

  /** Ranking the org's tools for an options prompt is the catalog's vocabulary's job: the offline analyst's. */
  closestCapabilities(text: string, catalog: Catalog, limit?: number) {
    return this.offline.closestCapabilities(text, catalog, limit);
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

  /**
   * Two attempts at a reply valid against `schema`, through LangChain's structured output: the model
   * is given the schema itself (`response_format: json_schema`), and its reply is still checked by the
   * TypeBox schema, whose bounds a provider's structured mode does not all enforce.
   */
  private async ask<S extends TSchema>(
    meter: TokenMeter | undefined,
    schema: S,
    name: string,
    instructions: string,
    input: string,
  ): Promise<Attempt<Static<S>>> {
    const structured = this.model.withStructuredOutput<Record<string, unknown>>(jsonSchemaOf(schema), {
      name,
      method: 'jsonSchema',
      strict: false,
      // the reply with its usage: every token the model spent counts against the execution's budget
      includeRaw: true,
    });
    const messages: [string, string][] = [
      ['system', `${instructions}\nReply with one JSON object and nothing else.`],
      ['user', input],
    ];
    let reason = 'no reply';
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      if (meter?.exhausted()) return { ok: false, reason: 'the token budget of the execution is spent' };
      try {
        const { raw, parsed } = await structured.invoke(messages);
        meter?.spend(tokensOf(raw));
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

/** The tokens a reply spent: LangChain's `usage_metadata`, else the OpenAI-compatible `usage` it came with. */
export function tokensOf(raw: unknown): number {
  const message = raw as {
    usage_metadata?: { total_tokens?: number };
    response_metadata?: { tokenUsage?: { totalTokens?: number }; usage?: { total_tokens?: number } };
  };
  return (
    message?.usage_metadata?.total_tokens ??
    message?.response_metadata?.tokenUsage?.totalTokens ??
    message?.response_metadata?.usage?.total_tokens ??
    0
  );
}

/** The configured analyst: a chat model when LLM_* is set (falling back to the offline one), else the offline one. */
export function configuredAnalyst(offline: Analyst, llm: LlmConfig | undefined, log: Logger): Analyst {
  return llm ? new LlmAnalyst(llm, offline, log) : offline;
}
