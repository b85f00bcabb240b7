import { makeFact } from '@hireloop/fact-stream';
import { describe, expect, it } from 'vitest';
import { LivePrompts, withLive } from '../src/chat/live';
import type { ExecutionState } from '../src/commands/access';
import type { CommandDeps } from '../src/commands/deps';
import { projectionIsAhead, respond } from '../src/commands/respond';
import { questionsPrompt } from './fixtures';

const alice = { userId: 'alice', orgId: 'acme' };
const result = (executionId: string) =>
  makeFact('ExecutionResult', { orgId: 'acme', correlation: { executionId } }, { executionId, status: 'completed' });

describe('what the broadcast consumer saw of an execution', () => {
  it('given a prompt and then a newer one, then the newer is the one pending', () => {
    const live = new LivePrompts();
    const first = questionsPrompt('e-1', alice, 'c-1');
    const second = questionsPrompt('e-1', alice, 'c-1');
    live.record(first);
    live.record(second);
    expect(live.get('e-1')).toEqual({ kind: 'prompt', prompt: second });
  });

  it('given a newer prompt seen, when an older one is delivered again, then the newer stays pending', () => {
    const live = new LivePrompts();
    const older = questionsPrompt('e-6', alice, 'c-6');
    const newer = { ...questionsPrompt('e-6', alice, 'c-6'), ts: new Date(Date.parse(older.ts) + 1_000).toISOString() };
    live.record(newer);
    live.record(older);
    expect(live.get('e-6')).toEqual({ kind: 'prompt', prompt: newer });
  });

  it('given an execution that ended, when its prompt is published again late, then it stays ended', () => {
    const live = new LivePrompts();
    live.record(result('e-2'));
    live.record(questionsPrompt('e-2', alice, 'c-2'));
    expect(live.get('e-2')).toMatchObject({ kind: 'ended', result: { status: 'completed' } });
  });

  it('given no projected row, when a prompt was seen, then the execution is the prompt’s addressee’s, waiting on it', () => {
    const prompt = questionsPrompt('e-3', alice, 'c-3');
    expect(withLive(null, { kind: 'prompt', prompt })).toMatchObject({
      executionId: 'e-3',
      orgId: 'acme',
      ownerUserId: 'alice',
      conversationId: 'c-3',
      status: 'waiting',
      currentPrompt: prompt,
    });
  });

  it('given a projected row still on an older prompt, then the seen prompt is pending and the projection is not ahead', () => {
    const older = questionsPrompt('e-4', alice, 'c-4');
    const newer = { ...questionsPrompt('e-4', alice, 'c-4'), ts: new Date(Date.parse(older.ts) + 1_000).toISOString() };
    const row: ExecutionState = {
      executionId: 'e-4',
      orgId: 'acme',
      ownerUserId: 'alice',
      conversationId: 'c-4',
      status: 'waiting',
      currentPrompt: older,
    };
    expect(withLive(row, { kind: 'prompt', prompt: newer })?.currentPrompt).toBe(newer);
    expect(projectionIsAhead(row, { kind: 'prompt', prompt: newer })).toBe(false);
    expect(projectionIsAhead({ ...row, currentPrompt: newer }, { kind: 'prompt', prompt: older })).toBe(true);
    expect(projectionIsAhead(row, { kind: 'ended', result: result('e-4') })).toBe(false);
  });

  it('given a projected row that ended, when the broadcast saw only a prompt published again (not the end), then it stays ended', () => {
    const prompt = questionsPrompt('e-7', alice, 'c-7');
    const row: ExecutionState = {
      executionId: 'e-7',
      orgId: 'acme',
      ownerUserId: 'alice',
      conversationId: 'c-7',
      status: 'completed',
      currentPrompt: null,
    };
    expect(withLive(row, { kind: 'prompt', prompt })).toEqual(row);
  });

  it('given another org’s prompt under the same id, then the projected row is left as it is', () => {
    const row: ExecutionState = {
      executionId: 'e-5',
      orgId: 'acme',
      ownerUserId: 'alice',
      conversationId: null,
      status: 'running',
      currentPrompt: null,
    };
    const foreign = questionsPrompt('e-5', { userId: 'mallory', orgId: 'evil' }, 'c-5');
    expect(withLive(row, { kind: 'prompt', prompt: foreign })).toBe(row);
  });
});

describe('answering while the read model cannot be read', () => {
  it('given a prompt the broadcast consumer saw, when Postgres refuses the read, then the answer is published and the failure logged', async () => {
    const live = new LivePrompts();
    const prompt = questionsPrompt('e-9', alice, 'c-9');
    live.record(prompt);
    const published: unknown[] = [];
    const warnings: unknown[] = [];
    const deps = {
      pool: { query: () => Promise.reject(new Error('connection refused')) } as unknown as CommandDeps['pool'],
      publisher: { publish: async (fact: unknown) => void published.push(fact) } as unknown as CommandDeps['publisher'],
      ids: { newId: () => '0190a1b2-c3d4-7e5f-8a9b-000000000009' },
      clock: { now: () => new Date('2026-11-24T08:00:00.000Z') },
      live,
      log: { warn: (...args: unknown[]) => void warnings.push(args) } as unknown as CommandDeps['log'],
    } as CommandDeps;
    const fact = await respond(deps, alice, {
      executionId: 'e-9',
      promptId: prompt.promptId,
      payload: { answers: { q1: 'Support' } },
    });
    expect(published).toEqual([fact]);
    expect(fact).toMatchObject({ executionId: 'e-9', promptId: prompt.promptId });
    expect(warnings).toHaveLength(1);
  });
});
