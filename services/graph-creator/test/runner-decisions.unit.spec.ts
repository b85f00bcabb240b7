import { describe, expect, it } from 'vitest';
import type { PromptSpec } from '../src/prompt';
import {
  type CheckpointView,
  type ExecutionRow,
  judgeAnswer,
  nodePath,
  pendingOf,
  phaseProgress,
  wakeDecision,
  whereItStands,
} from '../src/runner-decisions';

const spec: PromptSpec = {
  kind: 'options',
  messages: ['Approve?'],
  options: [{ id: 'approve', label: 'Approve' }],
  selectionRules: { mode: 'single', min: 1, max: 1 },
};
const row = (over: Partial<ExecutionRow> = {}): ExecutionRow => ({
  execution_id: 'x-1',
  org_id: 'acme',
  owner_user_id: 'u-1',
  conversation_id: 'c-1',
  status: 'running',
  employee_id: 'graph-creator',
  ...over,
});
const waiting = (promptId = 'p-1'): CheckpointView => ({
  next: ['ask'],
  createdAt: '2026-11-24T00:00:00Z',
  tasks: [{ name: 'ask', interrupts: [{ id: promptId, value: spec }] }],
});
const ended: CheckpointView = { next: [], createdAt: '2026-11-24T00:00:00Z', tasks: [] };
const fresh: CheckpointView = { next: [], tasks: [] };
const cutOff: CheckpointView = {
  next: ['execute'],
  createdAt: '2026-11-24T00:00:00Z',
  tasks: [{ name: 'execute', interrupts: [] }],
};

describe('is this answer for a pending prompt, a duplicate or stale?', () => {
  it('given a pending prompt, when its owner answers it, then the execution resumes with that prompt', () => {
    const verdict = judgeAnswer(row(), pendingOf(waiting()), { orgId: 'acme', userId: 'u-1', promptId: 'p-1' });
    expect(verdict).toEqual({ verdict: 'resume', prompt: { promptId: 'p-1', spec } });
  });
  it('given a prompt already answered, when the same answer comes again, then it is ignored and the standing is said again', () => {
    const verdict = judgeAnswer(row(), pendingOf(waiting('p-2')), { orgId: 'acme', userId: 'u-1', promptId: 'p-1' });
    expect(verdict).toMatchObject({ verdict: 'ignore', standing: true });
  });
  it('given a finished execution, when an answer comes, then it is ignored without republishing', () => {
    expect(judgeAnswer(row({ status: 'completed' }), [], { orgId: 'acme', userId: 'u-1', promptId: 'p-1' })).toEqual({
      verdict: 'ignore',
      reason: 'execution is completed',
      standing: false,
    });
  });
  it('given no execution, when an answer comes, then it is ignored', () => {
    expect(judgeAnswer(undefined, [], { orgId: 'acme', promptId: 'p-1' })).toMatchObject({
      verdict: 'ignore',
      reason: 'unknown execution',
    });
  });
  it('given a creation, when another user of the org answers, then it is refused', () => {
    const verdict = judgeAnswer(row(), pendingOf(waiting()), { orgId: 'acme', userId: 'u-2', promptId: 'p-1' });
    expect(verdict).toMatchObject({ verdict: 'ignore', reason: 'the answering user does not own this execution' });
  });
  it("given an employee's run, when another user of the org answers (an admin), then it resumes", () => {
    const verdict = judgeAnswer(row({ employee_id: 'emp-1' }), pendingOf(waiting()), {
      orgId: 'acme',
      userId: 'admin',
      promptId: 'p-1',
    });
    expect(verdict.verdict).toBe('resume');
  });
  it("given an employee's run, when a user of another org answers, then it is refused", () => {
    const verdict = judgeAnswer(row({ employee_id: 'emp-1' }), pendingOf(waiting()), {
      orgId: 'other',
      userId: 'u-1',
      promptId: 'p-1',
    });
    expect(verdict).toMatchObject({ verdict: 'ignore', standing: false });
  });
});

describe('where does this execution stand: prompt, result or continue?', () => {
  it('given an interrupt, then its prompt is published', () => {
    expect(whereItStands(row(), waiting(), false)).toEqual({ kind: 'prompt', pending: { promptId: 'p-1', spec } });
  });
  it('given a finished interrupt task (answered), then its prompt is history, not pending', () => {
    const answered: CheckpointView = { ...ended, tasks: [{ name: 'ask', result: {}, interrupts: [{ id: 'p-1', value: spec }] }] };
    expect(whereItStands(row(), answered, true)).toEqual({ kind: 'finish' });
  });
  it('given a graph that ended while the row runs, then the outcome is recorded and published', () => {
    expect(whereItStands(row(), ended, true)).toEqual({ kind: 'finish' });
  });
  it('given a started execution with no checkpoint, when the start is redelivered, then it runs again from the trigger', () => {
    expect(whereItStands(row(), fresh, false)).toEqual({ kind: 'restart' });
  });
  it('given a run cut off between checkpoints, when a delivery comes, then it carries on; but not straight after a run', () => {
    expect(whereItStands(row(), cutOff, false)).toEqual({ kind: 'continue' });
    expect(whereItStands(row(), cutOff, true)).toEqual({ kind: 'nothing' });
  });
  it('given a cancelled or ended execution, then its result is published again', () => {
    expect(whereItStands(row({ status: 'cancelled' }), waiting(), false)).toEqual({ kind: 'cancelled' });
    expect(whereItStands(row({ status: 'failed' }), ended, false)).toEqual({ kind: 'ended', status: 'failed' });
  });
});

describe('the path of a run on its phase event', () => {
  it('lists the nodes in order, folding repeats, within the event detail limit', () => {
    expect(nodePath(['analyse', 'match_workflow', 'match_workflow', 'match_workflow', 'identify_gaps', 'ask_human'])).toBe(
      'nodes: analyse, match_workflow ×3, identify_gaps, ask_human',
    );
    expect(nodePath(['review'])).toBe('nodes: review');
    expect(nodePath(Array.from({ length: 200 }, (_, i) => `node_${i}`)).length).toBe(500);
  });
});

describe('the progress a phase event tells', () => {
  const askingAt = (progress?: number): CheckpointView => ({
    next: ['ask'],
    tasks: [{ name: 'ask', interrupts: [{ id: 'p-9', value: { ...spec, ...(progress !== undefined ? { progress } : {}) } }] }],
  });

  it('given a run stopped at a prompt further on than its state, then the prompt’s figure, so the bar never steps back', () => {
    expect(phaseProgress(80, askingAt(90))).toBe(90);
    expect(phaseProgress(undefined, askingAt(55))).toBe(55);
  });

  it('given a prompt behind the state, or one with no figure, or no prompt at all, then the state’s figure', () => {
    expect(phaseProgress(60, askingAt(55))).toBe(60);
    expect(phaseProgress(80, askingAt())).toBe(80);
    expect(phaseProgress(100, ended)).toBe(100);
    expect(phaseProgress(undefined, fresh)).toBeUndefined();
  });
});

describe('a run that waits for a time (a step deferred by quiet hours)', () => {
  const deferred: CheckpointView = {
    next: ['wait'],
    createdAt: '2026-11-24T23:30:00Z',
    tasks: [
      {
        name: 'wait',
        interrupts: [{ id: 'i-1', value: { waitUntil: '2026-11-25T07:00:00.000Z', reason: 'quiet_hours: refund' } }],
      },
    ],
  };
  const run = row({ employee_id: 'emp-1' });

  it('given a wait interrupt, then it is no prompt: nobody is asked', () => {
    expect(pendingOf(deferred)).toEqual([]);
  });
  it('given a running run at a wait interrupt, then it stands waiting until that time', () => {
    expect(whereItStands(run, deferred, true)).toEqual({
      kind: 'waiting',
      waiting: { interruptId: 'i-1', waitUntil: '2026-11-25T07:00:00.000Z', reason: 'quiet_hours: refund' },
    });
  });
  it('when woken before its time, then it keeps waiting; at or after it, it goes on by that interrupt', () => {
    const standing = whereItStands(run, deferred, false);
    expect(wakeDecision(standing, new Date('2026-11-25T06:59:59Z'))).toEqual({ keep: true });
    expect(wakeDecision(standing, new Date('2026-11-25T07:00:00Z'))).toMatchObject({ wake: { interruptId: 'i-1' } });
  });
  it('given the quiet hours lifted since, when woken before their old end, then it goes on by that interrupt', () => {
    const standing = whereItStands(run, deferred, false);
    expect(wakeDecision(standing, new Date('2026-11-25T01:00:00Z'), true)).toMatchObject({ wake: { interruptId: 'i-1' } });
  });
  it('given it was cancelled meanwhile, when woken, then it is forgotten, not resumed', () => {
    const standing = whereItStands(row({ employee_id: 'emp-1', status: 'cancelled' }), deferred, false);
    expect(wakeDecision(standing, new Date('2026-11-25T08:00:00Z'))).toEqual({ keep: false });
  });
});
