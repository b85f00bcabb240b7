import { Counter, Histogram, type Registry } from 'prom-client';
import type { CallObservation } from './registry';

/**
 * The tool registry's metrics on the worker's `/metrics`: every call by capability and outcome
 * (`succeeded`, or the error code: a refusal's reason such as `rate_limited`, or the provider's
 * failure), and how long the calls that acted took. No org label: one series per tenant would not scale.
 */
export function toolMetrics(registry: Registry): (observation: CallObservation) => void {
  const calls = new Counter({
    name: 'hireloop_tool_calls_total',
    help: 'tool calls of employee runs, by capability and outcome (succeeded, or the error or refusal code)',
    labelNames: ['capability', 'outcome'] as const,
    registers: [registry],
  });
  const seconds = new Histogram({
    name: 'hireloop_tool_call_seconds',
    help: 'how long the tool calls that reached a provider took, retries included',
    labelNames: ['capability'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  return ({ capabilityId, outcome, acted, ms }) => {
    calls.inc({ capability: capabilityId, outcome });
    if (acted) seconds.observe({ capability: capabilityId }, ms / 1000);
  };
}
