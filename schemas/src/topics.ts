/**
 * The one registry of hireloop's Kafka topics (ARCHITECTURE §2). Every producer, consumer and the
 * start-up topic creation read it; nothing else names a topic.
 */
export const FactTypes = [
  'UIMessage',
  'TriggerCreated',
  'RunIntent',
  'HILPrompt',
  'HILResponse',
  'ExecutionResult',
  'ExecutionEvent',
  'EmployeeActivated',
  'EmployeeDeactivated',
  'PolicyChanged',
  'ConnectionsChanged',
] as const;
export type FactType = (typeof FactTypes)[number];

export interface TopicSpec {
  /** logical name; the broker's name is `${prefix}${name}` */
  readonly name: string;
  /** the fact field whose value is the message key (keeps one entity's facts in order) */
  readonly key: string;
  /** the fact types this topic carries; the first is its main one */
  readonly fact: FactType;
  readonly also?: readonly FactType[];
}

export const Topics = {
  uiMessages: { name: 'ui-messages', key: 'conversationId', fact: 'UIMessage' },
  triggers: { name: 'triggers', key: 'triggerId', fact: 'TriggerCreated' },
  runIntent: { name: 'runIntent', key: 'executionId', fact: 'RunIntent' },
  hilPrompt: { name: 'hil-prompt', key: 'executionId', fact: 'HILPrompt' },
  hilResponse: { name: 'hil-response', key: 'executionId', fact: 'HILResponse' },
  // with the result, the two ExecutionEvents that move a run's admission (`AdmissionEvents`): the
  // supervisor reads this topic, not the busy execution-events
  executionResult: { name: 'execution-result', key: 'executionId', fact: 'ExecutionResult', also: ['ExecutionEvent'] },
  executionEvents: { name: 'execution-events', key: 'executionId', fact: 'ExecutionEvent' },
  employees: { name: 'employees', key: 'employeeId', fact: 'EmployeeActivated', also: ['EmployeeDeactivated'] },
  // keyed by org: an org's policy changes stay in order
  orgPolicies: { name: 'org-policies', key: 'orgId', fact: 'PolicyChanged' },
  // keyed by org: an org's connection changes stay in order; every worker reads them (its catalog cache)
  orgConnections: { name: 'org-connections', key: 'orgId', fact: 'ConnectionsChanged' },
} as const satisfies Record<string, TopicSpec>;

export type TopicKey = keyof typeof Topics;
export const topicList: readonly TopicSpec[] = Object.values(Topics);

/** The dead-letter topic of a topic: same key, the failed fact with its error. */
export const dlqName = (topic: string): string => `${topic}.dlq`;

/** Every topic the platform needs, DLQs included, as broker names. */
export function allTopicNames(prefix = ''): string[] {
  return topicList.flatMap((t) => [`${prefix}${t.name}`, `${prefix}${dlqName(t.name)}`]);
}

// a topic's main fact wins over another topic that carries it too (ExecutionEvent: execution-events)
const byFact = new Map<FactType, TopicSpec>([
  ...topicList.flatMap((t) => (t.also ?? []).map((fact) => [fact, t] as const)),
  ...topicList.map((t) => [t.fact, t] as const),
]);

/**
 * The ExecutionEvents that change what a run holds of its org's admission slots: a step deferred to
 * the end of quiet hours frees its slot, its resumption takes it back. They travel on
 * `execution-result` beside the run's end, so the supervisor decides on them without reading every
 * progress and node event of `execution-events`, and one execution's deferral, resumption and result
 * keep their order (one topic, one key).
 */
export const AdmissionEvents = ['step_deferred', 'step_resumed'] as const;
const admissionEvents: ReadonlySet<string> = new Set(AdmissionEvents);

/** Whether a topic carries a fact type. */
export const carries = (spec: TopicSpec, type: FactType): boolean => spec.fact === type || (spec.also ?? []).includes(type);

/** The main topic of a fact type. */
export function topicOf(type: FactType): TopicSpec {
  const spec = byFact.get(type);
  if (!spec) throw new Error(`no topic carries ${type}`);
  return spec;
}

/** The topic a fact is published on: its type's main topic, but `execution-result` for the `AdmissionEvents`. */
export function topicFor(fact: { readonly type: FactType; readonly event?: string }): TopicSpec {
  if (fact.type === 'ExecutionEvent' && fact.event !== undefined && admissionEvents.has(fact.event))
    return Topics.executionResult;
  return topicOf(fact.type);
}
