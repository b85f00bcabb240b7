import { describe, expect, it } from 'vitest';
import { retrying } from '../src/retry';

const quick = { retries: 2, minTimeout: 1, factor: 1 };

describe('retrying: p-retry with its first attempt made directly', () => {
  it('given a run that succeeds, when retried, then it runs once and nothing hears of a failure', async () => {
    const failures: number[] = [];
    let runs = 0;
    const result = await retrying(
      async () => {
        runs++;
        return 'done';
      },
      { ...quick, onFailedAttempt: ({ attemptNumber }) => void failures.push(attemptNumber) },
    );
    expect(result).toBe('done');
    expect(runs).toBe(1);
    expect(failures).toEqual([]);
  });

  it('given a run that fails twice, when retried, then p-retry hears each failure with its attempt number and the third run answers', async () => {
    const heard: { attemptNumber: number; retriesLeft: number; message: string }[] = [];
    let runs = 0;
    const result = await retrying(
      async () => {
        runs++;
        if (runs < 3) throw new Error(`failure ${runs}`);
        return runs;
      },
      {
        ...quick,
        onFailedAttempt: ({ error, attemptNumber, retriesLeft }) =>
          void heard.push({ attemptNumber, retriesLeft, message: error.message }),
      },
    );
    expect(result).toBe(3);
    expect(heard).toEqual([
      { attemptNumber: 1, retriesLeft: 2, message: 'failure 1' },
      { attemptNumber: 2, retriesLeft: 1, message: 'failure 2' },
    ]);
  });

  it('given a first failure p-retry must not retry, when retried, then that error is thrown after one run', async () => {
    const permanent = new Error('permanent');
    let runs = 0;
    await expect(
      retrying(
        async () => {
          runs++;
          throw permanent;
        },
        { ...quick, shouldRetry: () => false },
      ),
    ).rejects.toBe(permanent);
    expect(runs).toBe(1);
  });

  it('given a run that always fails, when retried, then it runs 1 + retries times and the last error is thrown', async () => {
    let runs = 0;
    await expect(
      retrying(async () => {
        runs++;
        throw new Error(`failure ${runs}`);
      }, quick),
    ).rejects.toThrow('failure 3');
    expect(runs).toBe(3);
  });
});
