/**
 * Fault injection for `make chaos` (docs/decisions.md, "The worker kills itself at named moments"):
 * with `FAULT_KILL_AT=<point>` the worker SIGKILLs itself the `FAULT_KILL_AFTER`-th time (default 1)
 * it passes that point, so a kill lands exactly where a random signal from outside rarely does. Off
 * unless set; refused when `NODE_ENV=production`.
 */
import { writeSync } from 'node:fs';
import { ConfigError } from '@hireloop/platform';

export const FAULT_POINTS = [
  /** mid-run: a superstep has ended and the next is under way, nothing checkpointed yet (durability `exit`) */
  'node',
  /** the run stopped at an interrupt or ended, its checkpoint durable, the prompt or result not published */
  'publish',
  /** an answer taken and checked against the pending prompt, the thread not resumed yet */
  'resume',
  /** an employee run's step has acted and its effect is recorded, the next step not started */
  'execute',
] as const;
export type FaultPoint = (typeof FAULT_POINTS)[number];

export interface Faults {
  /** passes a point: dies here when it is this worker's fault */
  at(point: FaultPoint): void;
}

export const noFaults: Faults = { at: () => {} };

export function faultsFromEnv(
  env: Record<string, string | undefined> = process.env,
  kill: (point: FaultPoint) => void = (point) => {
    // said before dying, synchronously: the test counts kills by point from the output
    writeSync(2, `fault: SIGKILL at ${point}\n`);
    process.kill(process.pid, 'SIGKILL');
  },
): Faults {
  const at = env.FAULT_KILL_AT;
  if (!at) return noFaults;
  if (env.NODE_ENV === 'production') throw new ConfigError('FAULT_KILL_AT is for tests: it is refused when NODE_ENV=production');
  if (!(FAULT_POINTS as readonly string[]).includes(at))
    throw new ConfigError(`invalid FAULT_KILL_AT: expected one of ${FAULT_POINTS.join(', ')}`);
  const after = Number(env.FAULT_KILL_AFTER ?? 1);
  if (!Number.isInteger(after) || after < 1) throw new ConfigError('invalid FAULT_KILL_AFTER: expected a positive integer');
  let passed = 0;
  return {
    at(point) {
      if (point === at && ++passed === after) kill(point);
    },
  };
}
