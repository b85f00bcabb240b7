import pRetry, { type Options } from 'p-retry';

/**
 * `pRetry(run, options)` with its first attempt made directly. Nearly every handler and every send
 * succeeds at once, and p-retry's set-up for each call (its options copied and checked, a clock read,
 * its loop) cost the gateway, the supervisor and the router 2–4% of their CPU under load, more than a
 * small fact's handler (docs/decisions.md, 2026-11-27). A first failure is given to p-retry as the
 * failure of its first attempt, so what follows — the callbacks, `shouldRetry`, the delays and the
 * error thrown at the end — is p-retry's own. Not for a `signal` or a `maxRetryTime`: p-retry would check
 * them before and during the first attempt, which here it does not see.
 */
export async function retrying<T>(run: () => Promise<T>, options: Omit<Options, 'signal' | 'maxRetryTime'>): Promise<T> {
  let first: unknown;
  try {
    return await run();
  } catch (error) {
    first = error;
  }
  return pRetry((attempt) => (attempt === 1 ? Promise.reject(first) : run()), options);
}
