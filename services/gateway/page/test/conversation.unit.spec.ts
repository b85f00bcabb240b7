import { Limits } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import { MESSAGE_LIMIT, messageProblem, panelStatus, progressWords } from '../src/conversation';

describe('the page refuses a chat line the gateway would refuse, before it is sent, shown or made a title', () => {
  it('given the contract’s limit, then the page’s limit is the same', () => {
    expect(MESSAGE_LIMIT).toBe(Limits.text);
  });

  it('given an empty line or one over the limit, then a problem that says what to do; else none', () => {
    expect(messageProblem('')).toBe('Write a message first.');
    expect(messageProblem('x'.repeat(MESSAGE_LIMIT))).toBeNull();
    expect(messageProblem('x'.repeat(300_000))).toBe(
      'Your message is 300,000 characters; hireloop takes at most 20,000. Shorten it and send it again.',
    );
  });
});

describe('the side panel says an execution waits whenever a prompt of it is the one pending on the page', () => {
  const prompt = { promptId: 'p-1' } as never;
  const knows = (over: Partial<Parameters<typeof panelStatus>[1]> = {}) => ({
    ended: new Map<string, string>(),
    asking: new Set<string>(),
    answered: new Set<string>(),
    phases: new Map<string, string>(),
    ...over,
  });

  it('given a list that lags (working, an earlier phase) and a prompt of it on the page, then waiting, in the phase the socket said', () => {
    expect(
      panelStatus(
        { executionId: 'x', status: 'running', phase: 'refinement', currentPrompt: null },
        knows({ asking: new Set(['x']), phases: new Map([['x', 'validation']]) }),
      ),
    ).toEqual({ status: 'waiting', phase: 'validation' });
  });

  it('given a list that still shows the prompt answered on the page, then working', () => {
    expect(
      panelStatus(
        { executionId: 'x', status: 'waiting', phase: 'gaps', currentPrompt: prompt },
        knows({ answered: new Set(['p-1']) }),
      ),
    ).toEqual({ status: 'running', phase: 'gaps' });
  });

  it('given an end the socket said, or one the list says, then that end; else the list as it is', () => {
    const listed = { executionId: 'x', status: 'running', phase: 'gaps', currentPrompt: null };
    expect(panelStatus(listed, knows({ ended: new Map([['x', 'cancelled']]), asking: new Set(['x']) }))).toEqual({
      status: 'cancelled',
      phase: null,
    });
    expect(panelStatus({ ...listed, status: 'completed' }, knows({ asking: new Set(['x']) }))).toEqual({
      status: 'completed',
      phase: null,
    });
    expect(panelStatus({ ...listed, status: 'queued' }, knows())).toEqual({ status: 'queued', phase: 'gaps' });
  });
});

describe("the progressbar's words for one execution", () => {
  it('given its phase, its place in the queue and how far, then each said; none known, then the idle word', () => {
    expect(progressWords({ phase: 'validation', percent: 90 }, 'working')).toBe('validation · 90%');
    expect(progressWords({ phase: 'queued', position: 2, percent: 0 }, 'working')).toBe('queued · position 2 in the queue · 0%');
    expect(progressWords({}, 'waiting for your answer')).toBe('waiting for your answer');
  });
});
