import { makeFact } from '@hireloop/fact-stream';
import { describe, expect, it } from 'vitest';
import { outboundOf } from '../src/broadcast';
import { LivePrompts, pendingAsSeen, projectionIsAhead, withLive } from '../src/chat/live';
import type { ExecutionState } from '../src/commands/access';
import { cancel } from '../src/commands/cancel';
import type { CommandDeps } from '../src/commands/deps';
import { decideRespond, respond } from '../src/commands/respond';
import { waitingAsSeen } from '../src/read-model';
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

describe('a projected row that does not yet say whose the execution is', () => {
  // the projector folds a prompt or a progress event (other topics) before the RunIntent that names the owner
  const ownerless = (executionId: string): ExecutionState => ({
    executionId,
    orgId: 'acme',
    ownerUserId: null,
    conversationId: null,
    status: 'running',
    currentPrompt: null,
  });
  const minting = {
    ids: { newId: () => '0190a1b2-c3d4-7e5f-8a9b-000000000010' },
    clock: { now: () => new Date('2026-11-25T08:00:00.000Z') },
  };

  it('given a row folded before its RunIntent, when a prompt was seen, then its correlation says whose it is', () => {
    const prompt = questionsPrompt('e-10', alice, 'c-10');
    expect(withLive(ownerless('e-10'), { kind: 'prompt', prompt })).toMatchObject({
      ownerUserId: 'alice',
      conversationId: 'c-10',
      status: 'waiting',
      currentPrompt: prompt,
    });
  });

  it('given such a row, when the prompt’s addressee answers it, then the answer is decided at once (not refused as not found)', () => {
    const prompt = questionsPrompt('e-11', alice, 'c-11');
    const fact = decideRespond(
      withLive(ownerless('e-11'), { kind: 'prompt', prompt }),
      alice,
      { executionId: 'e-11', promptId: prompt.promptId, payload: { answers: { q1: 'Support' } }, conversationId: 'c-11' },
      minting,
    );
    expect(fact).toMatchObject({ type: 'HILResponse', executionId: 'e-11', promptId: prompt.promptId });
  });

  it('given such a row, when someone else answers, then it is still not found', () => {
    const prompt = questionsPrompt('e-12', alice, 'c-12');
    const bob = { userId: 'bob', orgId: 'acme' };
    expect(() =>
      decideRespond(
        withLive(ownerless('e-12'), { kind: 'prompt', prompt }),
        bob,
        { executionId: 'e-12', promptId: prompt.promptId, payload: { answers: { q1: 'Support' } } },
        minting,
      ),
    ).toThrow(/not found/);
  });

  it('given a started row that names no owner (an employee run), then a seen prompt does not make its addressee the owner', () => {
    const prompt = questionsPrompt('e-14', alice, 'c-14');
    const run = { ...ownerless('e-14'), employeeId: 'emp-1', employeeOwnerUserId: 'erin' };
    expect(withLive(run, { kind: 'prompt', prompt })).toMatchObject({
      ownerUserId: null,
      conversationId: null,
      status: 'waiting',
    });
  });

  it('given a row folded before its RunIntent, then a seen end does not say whose it is (only a prompt’s addressee is its owner)', () => {
    const end = makeFact(
      'ExecutionResult',
      { orgId: 'acme', correlation: { executionId: 'e-15', userId: 'an-admin-who-cancelled' } },
      { executionId: 'e-15', status: 'cancelled' },
    );
    expect(withLive(ownerless('e-15'), { kind: 'ended', result: end })).toMatchObject({ ownerUserId: null, status: 'cancelled' });
  });

  it('given a row that names its owner, then a seen fact never changes whose it is', () => {
    const prompt = questionsPrompt('e-13', { userId: 'mallory', orgId: 'acme' }, 'c-other');
    const row = { ...ownerless('e-13'), ownerUserId: 'alice', conversationId: 'c-13' };
    expect(withLive(row, { kind: 'prompt', prompt })).toMatchObject({ ownerUserId: 'alice', conversationId: 'c-13' });
  });
});

describe('the prompt a socket that joins a conversation is shown (a page reloaded right after a prompt)', () => {
  const later = (prompt: ReturnType<typeof questionsPrompt>, ms: number) => ({
    ...prompt,
    ts: new Date(Date.parse(prompt.ts) + ms).toISOString(),
  });
  const rowOf = (prompt: ReturnType<typeof questionsPrompt>, changes: Partial<ExecutionState & { updatedAt: string }> = {}) => ({
    executionId: prompt.executionId,
    orgId: 'acme',
    ownerUserId: 'alice',
    conversationId: prompt.correlation.conversationId ?? null,
    status: 'running',
    currentPrompt: null,
    employeeId: 'graph-creator',
    updatedAt: new Date(Date.parse(prompt.ts) - 50).toISOString(),
    ...changes,
  });
  const waitingOn = (prompt: ReturnType<typeof questionsPrompt>): ExecutionState => ({
    ...rowOf(prompt),
    status: 'waiting',
    currentPrompt: prompt,
  });

  it('given the broadcast saw a prompt the projection has not folded (its row still running), when its addressee joins, then that prompt is pending', () => {
    const seen = questionsPrompt('e-40', alice, 'c-40');
    expect(pendingAsSeen(null, seen, rowOf(seen), alice)).toMatchObject({ status: 'waiting', currentPrompt: seen });
  });

  it('given such a prompt and no projected row at all yet, when its addressee joins, then that prompt is pending', () => {
    const seen = questionsPrompt('e-41', alice, 'c-41');
    expect(pendingAsSeen(null, seen, null, alice)).toMatchObject({
      executionId: 'e-41',
      ownerUserId: 'alice',
      currentPrompt: seen,
    });
  });

  it('given such a prompt, when another user of the org joins, then it is not theirs to see', () => {
    const seen = questionsPrompt('e-42', alice, 'c-42');
    expect(pendingAsSeen(null, seen, rowOf(seen), { userId: 'bob', orgId: 'acme' })).toBeNull();
    expect(pendingAsSeen(null, seen, null, { userId: 'bob', orgId: 'acme' })).toBeNull();
  });

  it('given a seen prompt of another org (the same conversation id), then the projection stands', () => {
    const seen = questionsPrompt('e-43', { userId: 'alice', orgId: 'globex' }, 'c-43');
    expect(pendingAsSeen(null, seen, null, alice)).toBeNull();
  });

  it('given the projection waits on a newer prompt than the one seen, then the projection’s is shown', () => {
    const seen = questionsPrompt('e-44', alice, 'c-44');
    const projected = waitingOn(later(questionsPrompt('e-45', alice, 'c-44'), 1_000));
    expect(pendingAsSeen(projected, seen, rowOf(seen), alice)).toBe(projected);
  });

  it('given the projection waits on an older prompt of the conversation, when a newer one was seen, then the newer is shown', () => {
    const older = questionsPrompt('e-46', alice, 'c-46');
    const seen = later(questionsPrompt('e-46', alice, 'c-46'), 1_000);
    const projected = waitingOn(older);
    expect(pendingAsSeen(projected, seen, { ...waitingOn(older), updatedAt: older.ts }, alice)).toMatchObject({
      currentPrompt: { promptId: seen.promptId },
    });
  });

  it("given a run's prompt shown in the conversation of the user who answered its last one, when that user joins it again after the projection folded the prompt, then it is pending there; not for another user", () => {
    const seen = questionsPrompt('e-48', alice, 'c-48');
    // the run's row: no conversation of its own, waiting on the prompt (projected), owned by the employee's owner
    const run = {
      ...rowOf(seen),
      conversationId: null,
      ownerUserId: null,
      employeeId: 'emp-1',
      status: 'waiting',
      currentPrompt: seen,
    };
    expect(pendingAsSeen(null, seen, { ...run, updatedAt: seen.ts }, alice)).toMatchObject({
      status: 'waiting',
      currentPrompt: seen,
    });
    expect(pendingAsSeen(null, seen, { ...run, updatedAt: seen.ts }, { userId: 'bob', orgId: 'acme' })).toBeNull();
    // answered since (the row waits on nothing): not shown
    expect(
      pendingAsSeen(null, seen, { ...run, status: 'running', currentPrompt: null, updatedAt: later(seen, 100).ts }, alice),
    ).toBeNull();
  });

  it('given the seen prompt answered (its row moved on after it), then it is not shown again', () => {
    const seen = questionsPrompt('e-47', alice, 'c-47');
    const answered = rowOf(seen, { updatedAt: later(seen, 200).ts });
    expect(pendingAsSeen(null, seen, answered, alice)).toBeNull();
  });

  it('given the seen prompt’s execution ended in the projection, then nothing is pending', () => {
    const seen = questionsPrompt('e-48', alice, 'c-48');
    expect(pendingAsSeen(null, seen, rowOf(seen, { status: 'cancelled' }), alice)).toBeNull();
  });

  it('given a prompt and then a prompt of another execution in the same conversation, then the latest is the one asking; once it ends, none', () => {
    const live = new LivePrompts();
    const first = questionsPrompt('e-49', alice, 'c-49');
    const second = questionsPrompt('e-50', alice, 'c-49');
    live.record(first);
    expect(live.askingIn('acme', 'c-49')).toEqual(first);
    live.record(second);
    expect(live.askingIn('acme', 'c-49')).toEqual(second);
    expect(live.askingIn('globex', 'c-49')).toBeUndefined();
    live.record(result('e-50'));
    expect(live.askingIn('acme', 'c-49')).toBeUndefined();
  });
});

/** Commands' dependencies with no projected row, publishing into `published` (or failing, as a broker that is down). */
const depsWith = (live: LivePrompts, published: unknown[], failing = false) =>
  ({
    // the projection has no row for it yet
    pool: { query: async () => ({ rows: [] }) } as unknown as CommandDeps['pool'],
    publisher: {
      publish: async (fact: unknown) => {
        if (failing) throw new Error('broker down');
        published.push(fact);
      },
    } as unknown as CommandDeps['publisher'],
    ids: { newId: () => '0190a1b2-c3d4-7e5f-8a9b-000000000011' },
    clock: { now: () => new Date('2026-11-25T08:00:00.000Z') },
    live,
  }) as CommandDeps;

describe('cancelling right after a frame', () => {
  it('given a prompt the broadcast saw and nothing projected yet, when its addressee cancels, then the cancellation is published', async () => {
    const live = new LivePrompts();
    live.record(questionsPrompt('e-30', alice, 'c-30'));
    const published: unknown[] = [];
    const fact = await cancel(depsWith(live, published), alice, { executionId: 'e-30', source: 'http' });
    expect(published).toEqual([fact]);
    expect(fact).toMatchObject({ type: 'TriggerCreated', triggerType: 'cancel_execution', payload: { executionId: 'e-30' } });
  });

  it('given a run of no conversation, when a socket cancels it, then its end goes to that socket’s conversation, even when another cancel ended it', async () => {
    const live = new LivePrompts();
    const asking = questionsPrompt('e-32', alice, 'unused');
    const { conversationId: _none, ...correlation } = asking.correlation;
    live.record({ ...asking, correlation });
    const published: unknown[] = [];
    await cancel(depsWith(live, published), alice, { executionId: 'e-32', conversationId: 'wc', source: 'chat' });
    expect(live.shownIn('e-32')).toEqual({ conversationId: 'wc', userId: 'alice' });
    // the end an HTTP cancel caused names no conversation: it is told where the socket's cancel came from
    expect(outboundOf(result('e-32'), undefined, live.shownIn('e-32'))).toMatchObject({
      audience: { conversationId: 'wc', userId: 'alice' },
      frame: { type: 'execution_result', conversationId: 'wc', status: 'completed' },
    });
  });

  it('given the same, when another user cancels, then it is not found and nothing is published', async () => {
    const live = new LivePrompts();
    live.record(questionsPrompt('e-31', alice, 'c-31'));
    const published: unknown[] = [];
    await expect(
      cancel(depsWith(live, published), { userId: 'bob', orgId: 'acme' }, { executionId: 'e-31', source: 'http' }),
    ).rejects.toThrow(/not found/);
    expect(published).toEqual([]);
  });
});

describe('one answer per prompt', () => {
  it('given a prompt answered, when a second answer arrives before the worker moved on, then 409 and nothing more is published', async () => {
    const live = new LivePrompts();
    const prompt = questionsPrompt('e-60', alice, 'c-60');
    live.record(prompt);
    const published: unknown[] = [];
    const deps = depsWith(live, published);
    const command = { executionId: 'e-60', promptId: prompt.promptId, payload: { answers: { q1: 'Support' } } };
    // two answers racing: both decided before either is published
    const results = await Promise.allSettled([respond(deps, alice, command), respond(deps, alice, command)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(published).toHaveLength(1);
    await expect(respond(deps, alice, command)).rejects.toThrow(/already been answered/);
  });

  it('given a cancel accepted, when an answer arrives right after, then 409', async () => {
    const live = new LivePrompts();
    const prompt = questionsPrompt('e-61', alice, 'c-61');
    live.record(prompt);
    const published: unknown[] = [];
    const deps = depsWith(live, published);
    await cancel(deps, alice, { executionId: 'e-61', source: 'http' });
    await expect(
      respond(deps, alice, { executionId: 'e-61', promptId: prompt.promptId, payload: { answers: { q1: 'Support' } } }),
    ).rejects.toThrow(/cancelled/);
    expect(published).toHaveLength(1);
  });

  it('given an answer that could not be published, when it is sent again, then it is accepted', async () => {
    const live = new LivePrompts();
    const prompt = questionsPrompt('e-62', alice, 'c-62');
    live.record(prompt);
    const published: unknown[] = [];
    const command = { executionId: 'e-62', promptId: prompt.promptId, payload: { answers: { q1: 'Support' } } };
    await expect(respond(depsWith(live, published, true), alice, command)).rejects.toThrow(/broker down/);
    await respond(depsWith(live, published), alice, command);
    expect(published).toHaveLength(1);
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

describe('what waits in a conversation the projection holds nothing of', () => {
  /** a pool that records the statements asked of it and finds no row */
  const recordingPool = () => {
    const asked: string[] = [];
    const pool = {
      query: async (config: { text: string } | string) => {
        asked.push(typeof config === 'string' ? config : config.text);
        return { rows: [] };
      },
    } as unknown as CommandDeps['pool'];
    return { pool, asked };
  };

  it('given a join that read no execution there, when nothing was seen either, then nothing waits and nothing more is read', async () => {
    const { pool, asked } = recordingPool();
    expect(await waitingAsSeen(pool, new LivePrompts(), alice, 'c-new', false)).toBeNull();
    expect(asked).toEqual([]);
  });

  it('given a join that read no execution there, when a prompt of the caller’s was seen there, then that prompt waits', async () => {
    const { pool, asked } = recordingPool();
    const live = new LivePrompts();
    const prompt = questionsPrompt('e-10', alice, 'c-10');
    live.record(prompt);
    expect(await waitingAsSeen(pool, live, alice, 'c-10', false)).toMatchObject({
      executionId: 'e-10',
      status: 'waiting',
      currentPrompt: { promptId: prompt.promptId },
    });
    // only the seen prompt's execution is read, not the conversation's pending prompts
    expect(asked).toHaveLength(1);
    expect(asked[0]).not.toMatch(/current_prompt IS NOT NULL/);
  });

  it('given no such knowledge, when asked, then the projection’s pending prompts are read', async () => {
    const { pool, asked } = recordingPool();
    expect(await waitingAsSeen(pool, new LivePrompts(), alice, 'c-11')).toBeNull();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/status = 'waiting' AND current_prompt IS NOT NULL/);
  });
});
