/**
 * What happens when an answer to a prompt arrives — `POST /v1/executions/:id/respond`, a
 * `hil_response` frame, or a chat line that answers a one-question prompt: the execution must be the
 * caller's (else 404), the prompt must be the one pending (else 409), the kind must be the prompt's
 * and the payload must satisfy its input schema (else 422 naming the field); then `HILResponse` is
 * published on `hil-response` and graph-creator resumes.
 */
import { makeFact, type PublishOptions } from '@hireloop/fact-stream';
import { HireloopError, type Principal } from '@hireloop/platform';
import { checkAnswer, type HILResponse } from '@hireloop/schemas';
import { projectionIsAhead, withLive } from '../chat/live';
import { validationFailed } from '../errors';
import { findExecution } from '../read-model';
import { found, missing, untilStored } from '../until-stored';
import { type ExecutionState, ownExecution } from './access';
import type { CommandDeps, Minting } from './deps';

export interface RespondCommand {
  executionId: string;
  promptId: string;
  /** required over HTTP, optional in a frame: when given it must be the prompt's */
  kind?: 'options' | 'questions';
  payload: unknown;
  /** the conversation a frame named: it must be the execution's */
  conversationId?: string;
}

/** Decides the HILResponse an answer becomes, or why it is refused. Pure. */
export function decideRespond(
  execution: ExecutionState | null,
  principal: Principal,
  command: RespondCommand,
  { ids, clock }: Minting,
): HILResponse {
  const own = ownExecution(execution, principal, command.executionId);
  if (command.conversationId !== undefined && own.conversationId !== null && own.conversationId !== command.conversationId) {
    throw new HireloopError('NOT_FOUND', `execution ${command.executionId} not found in conversation ${command.conversationId}`, {
      field: '/executionId',
    });
  }
  const prompt = own.currentPrompt;
  if (!prompt || prompt.promptId !== command.promptId) {
    const pending = prompt ? `the pending prompt is ${prompt.promptId}` : 'no prompt is pending';
    throw new HireloopError('CONFLICT', `prompt ${command.promptId} is not pending on execution ${own.executionId}: ${pending}`, {
      field: '/promptId',
    });
  }
  if (command.kind !== undefined && command.kind !== prompt.kind) {
    throw new HireloopError(
      'VALIDATION_FAILED',
      `/kind: prompt ${prompt.promptId} is a ${prompt.kind} prompt, not ${command.kind}`,
      {
        field: '/kind',
      },
    );
  }
  const answer = checkAnswer(prompt, command.payload);
  if (!answer.ok) throw validationFailed(answer.errors, '/payload');
  const conversationId = own.conversationId ?? command.conversationId;
  return makeFact(
    'HILResponse',
    {
      orgId: principal.orgId,
      correlation: { userId: principal.userId, executionId: own.executionId, ...(conversationId ? { conversationId } : {}) },
    },
    { executionId: own.executionId, promptId: prompt.promptId, kind: prompt.kind, payload: answer.value },
    { ids, clock },
  );
}

/** Publishes the answer once the checks pass; returns the published fact. */
export async function respond(
  deps: CommandDeps,
  principal: Principal,
  command: RespondCommand,
  trace: PublishOptions = {},
): Promise<HILResponse> {
  const fact = await decideWhenProjected(deps, principal, command);
  // one answer per prompt: a second one, or one after a cancel, sent before the worker moved on is refused here
  if (deps.live && !deps.live.claimAnswer(fact.executionId, fact.promptId))
    throw new HireloopError(
      'CONFLICT',
      `prompt ${fact.promptId} of execution ${fact.executionId} has already been answered or the execution cancelled`,
      { field: '/promptId' },
    );
  try {
    await deps.publisher.publish(fact, trace);
  } catch (error) {
    deps.live?.releaseAnswer(fact.executionId, fact.promptId);
    throw error;
  }
  return fact;
}

/**
 * How long an answer may wait for the projection to show the execution or the prompt it answers, when
 * this instance's broadcast saw neither. A prompt a socket showed is decided from the broadcast at once,
 * so this covers the projector's lag behind an instance that never saw the prompt (a restart, another
 * instance's socket): a second or two, not the time a refused caller should wait for their 404 or 409.
 */
const PROJECTION_LAG_MS = 2_000;

/**
 * Whether a refusal may be the projection lagging: the prompt not (yet) the pending one, or an execution
 * it has no row of, or no owner yet (a row begun from another topic's fact before its RunIntent). A row
 * that names its owner, and it is someone else, stays someone else's: that 404 stands at once. Pure.
 */
export function mayBeLagging(error: unknown, execution: ExecutionState | null): boolean {
  if (!(error instanceof HireloopError)) return false;
  if (error.code === 'CONFLICT') return true;
  if (error.code !== 'NOT_FOUND') return false;
  return execution === null || (execution.ownerUserId === null && (execution.employeeId ?? null) === null);
}

/**
 * Sockets receive a prompt straight from Kafka, often before the event store has projected it. When
 * this instance's broadcast consumer saw the execution's latest prompt (or its end), that decides at
 * once, with the event store up or down. Otherwise — an execution this instance never saw, e.g. one
 * started before it — a refusal for "not found" or "not pending" is re-decided against the projection
 * for a short while before it stands.
 */
async function decideWhenProjected(deps: CommandDeps, principal: Principal, command: RespondCommand): Promise<HILResponse> {
  const live = deps.live?.get(command.executionId);
  if (live) {
    // the broadcast consumer saw this execution's latest prompt or its end: decide now, projector or not
    const execution = await findExecution(deps.pool, principal.orgId, command.executionId).catch((error: unknown) => {
      deps.log?.warn(
        { err: error, executionId: command.executionId },
        'the projection could not be read: deciding from the broadcast alone',
      );
      return null;
    });
    try {
      return decideRespond(withLive(execution, live), principal, command, deps);
    } catch (error) {
      if (!(error instanceof HireloopError)) throw error;
      // the projection may be the one ahead (this instance missed a prompt): a newer prompt there decides
      if (execution && projectionIsAhead(execution, live)) {
        try {
          return decideRespond(execution, principal, command, deps);
        } catch {
          throw error;
        }
      }
      // unknown to the projection and not the prompt's addressee (an admin answering a run): wait for it below
      if (error.code !== 'NOT_FOUND') throw error;
    }
  }
  // a refusal for "not found" or "not pending" may be the projection lagging: decided again until it shows the prompt
  const decided = await untilStored(
    async () => {
      const execution = await findExecution(deps.pool, principal.orgId, command.executionId);
      try {
        return found(decideRespond(execution, principal, command, deps));
      } catch (error) {
        if (!mayBeLagging(error, execution)) throw error;
        return missing(error);
      }
    },
    { timeoutMs: PROJECTION_LAG_MS },
  );
  if (decided.found) return decided.value;
  throw decided.missing;
}
