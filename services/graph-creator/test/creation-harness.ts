import { randomUUID } from 'node:crypto';
import type { Catalog } from '@hireloop/analyst';
import { offlineAnalyst } from '@hireloop/analyst';
import { type AnswerPayload, builtInCatalog, devOrgConnections, type EmployeeGraphSpec } from '@hireloop/schemas';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { scriptedAnswer } from '../src/answerer';
import { type DriveResult, driveCreation } from '../src/creation/drive';
import type { CreationOptions } from '../src/creation/graph';
import type { CatalogSource } from '../src/creation/ports';
import { freshCatalogSource } from '../src/creation/sources';
import type { PromptSpec } from '../src/prompt';

// What the creation graph's integration tests share: an in-memory Connect Hub, the real offline
// analyst, and an answerer that follows a script and then approves.

export const allProviders: readonly string[] = builtInCatalog.providers.map((p) => p.id);

export const catalogOf = (connected: readonly string[] = devOrgConnections): Catalog => ({
  capabilities: builtInCatalog.capabilities,
  triggers: builtInCatalog.triggers,
  connected: [...connected],
});

/** The org's view of the built-in catalog, with `connected` as its connections: frozen and shared, as the worker's is. */
export const memoryCatalog = (connected: readonly string[] = devOrgConnections): CatalogSource =>
  freshCatalogSource({ forOrg: async () => structuredClone(catalogOf(connected)) });

export { offlineAnalyst };

export const isReview = (p: PromptSpec): boolean => p.kind === 'options' && p.options.some((o) => o.id === 'approve');

/** One scripted answer: a payload, or a function of the prompt it answers. */
export type Scripted = AnswerPayload | ((prompt: PromptSpec) => AnswerPayload);

/**
 * Answers prompt i with `script[i]`; past the script, approves at review and otherwise answers as
 * the evaluation harness does (recommended option, example answers).
 */
export const answering =
  (...script: Scripted[]) =>
  (prompt: PromptSpec, index: number): AnswerPayload => {
    const step = script[index];
    if (step !== undefined) return typeof step === 'function' ? step(prompt) : step;
    return isReview(prompt) ? { selected: ['approve'] } : scriptedAnswer(prompt);
  };

export const optionIds = (p: PromptSpec | undefined): string[] => (p?.kind === 'options' ? p.options.map((o) => o.id) : []);
export const recommendedOf = (p: PromptSpec | undefined): string | undefined =>
  p?.kind === 'options' ? p.options.find((o) => o.recommended)?.id : undefined;
export const questionsOf = (p: PromptSpec | undefined) => (p?.kind === 'questions' ? p.questions : []);

export interface Run extends DriveResult {
  executionId: string;
  spec: EmployeeGraphSpec;
}

/** Runs one creation to its end on `checkpointer`; `spec` is the employee (throws when there is none). */
export async function create(
  checkpointer: BaseCheckpointSaver,
  jobDescription: string,
  answer: (prompt: PromptSpec, index: number) => AnswerPayload = answering(),
  options: Partial<CreationOptions> = {},
  executionId: string = randomUUID(),
  orgId = 'acme',
): Promise<Run> {
  const result = await driveCreation(
    checkpointer,
    { analyst: offlineAnalyst(), catalog: memoryCatalog(), ...options },
    { executionId, orgId, jobDescription },
    answer,
  );
  return {
    ...result,
    executionId,
    get spec(): EmployeeGraphSpec {
      if (!result.employee) throw new Error(`creation ${executionId} ended without an employee (${result.state.decision})`);
      return result.employee;
    },
  };
}
