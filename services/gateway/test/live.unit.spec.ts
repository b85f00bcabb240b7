import { makeFact } from '@hireloop/fact-stream';
import { describe, expect, it } from 'vitest';
import { LivePrompts, withLive } from '../src/chat/live';
import type { ExecutionState } from '../src/commands/access';
import { projectionIsAhead } from '../src/commands/respond';
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
