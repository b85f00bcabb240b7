import { Limits } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import { MESSAGE_LIMIT, messageProblem } from '../src/conversation';

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
