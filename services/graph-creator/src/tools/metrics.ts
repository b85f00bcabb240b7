import { toolCallMetrics } from '@hireloop/platform';
import type { Registry } from 'prom-client';
import type { CallObservation } from './registry';

/**
 * The tool registry's observations on the worker's `/metrics` (families declared in platform's
 * metrics): every call by capability and outcome (`succeeded`, or the error code: a refusal's reason
 * such as `rate_limited`, or the provider's failure), and how long the calls that acted took.
 */
export function toolMetrics(registry: Registry): (observation: CallObservation) => void {
  const { calls, seconds } = toolCallMetrics(registry);
  return ({ capabilityId, outcome, acted, ms }) => {
    calls.inc({ capability: capabilityId, outcome });
    if (acted) seconds.observe({ capability: capabilityId }, ms / 1000);
  };
}
