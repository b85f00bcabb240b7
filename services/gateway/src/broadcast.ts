/**
 * What happens when a fact for a conversation arrives from Kafka: every gateway instance consumes
 * `hil-prompt`, `execution-events`, `execution-result` and `ui-messages` in its own consumer group
 * (broadcast, from the latest offset) and pushes the matching frame to that conversation's sockets.
 */
import { FactConsumer, type FactPublisher } from '@hireloop/fact-stream';
import type { Logger, StreamMetrics } from '@hireloop/platform';
import { type AnyFact, type ServerFrame, SupervisorEventKinds, Topics } from '@hireloop/schemas';
import type { Kafka } from 'kafkajs';
import type { Audience, BroadcastHub } from './chat/hub';
import { comesAfterEnd, type Seen, type Shown } from './chat/live';
import { promptFrame } from './views';

export interface Outbound {
  audience: Audience;
  frame: ServerFrame;
}

/**
 * Who a fact of an execution is for: its conversation and user; a fact that names no conversation (a run's, its
 * prompt answered over HTTP, its end) goes where the execution's prompts were last shown, to that user.
 */
const audienceOf = (fact: AnyFact, conversationId: string | undefined, shown?: Shown): Audience | undefined => {
  if (conversationId === undefined) return shown && { orgId: fact.orgId, ...shown };
  return {
    orgId: fact.orgId,
    conversationId,
    ...(fact.correlation.userId !== undefined ? { userId: fact.correlation.userId } : {}),
  };
};

const SUPERVISOR_EVENTS: ReadonlySet<string> = new Set(SupervisorEventKinds);

/** The phase a supervisor's word puts an execution in, for an event that names none. */
const SUPERVISOR_PHASES: Readonly<Record<(typeof SupervisorEventKinds)[number], string>> = {
  queued: 'queued',
  started: 'starting',
  refused: 'refused',
  prompt_reminder: 'waiting',
};

/**
 * The frame a fact becomes for its conversation's sockets (or, naming none, for where its execution's prompts
 * were last `shown`), if any. An `execution_event` always carries `phase` and `progress` (§4a): an event without
 * them (the supervisor's word, a reminder, progress alone) carries its own phase, else the execution's last phase
 * and progress seen (`seen`), else `working` and 0. Pure.
 */
export function outboundOf(fact: AnyFact, seen?: Seen, shown?: Shown): Outbound | undefined {
  switch (fact.type) {
    case 'HILPrompt': {
      const audience = audienceOf(fact, fact.correlation.conversationId, shown);
      return audience && { audience, frame: promptFrame(fact, audience.conversationId) };
    }
    case 'ExecutionEvent': {
      // node enter/exit and the like are for the timeline; a client is told phase and progress, and
      // the supervisor's word on admission (queued with its position, started, refused) and deadlines
      const told = SUPERVISOR_EVENTS.has(fact.event);
      if (fact.phase === undefined && fact.progress === undefined && !told) return undefined;
      const audience = audienceOf(fact, fact.correlation.conversationId, shown);
      return (
        audience && {
          audience,
          frame: {
            type: 'execution_event',
            conversationId: audience.conversationId,
            executionId: fact.executionId,
            phase:
              fact.phase ??
              (told ? SUPERVISOR_PHASES[fact.event as (typeof SupervisorEventKinds)[number]] : undefined) ??
              seen?.phase ??
              'working',
            progress: fact.progress ?? seen?.progress ?? 0,
            ...(told ? { event: fact.event as (typeof SupervisorEventKinds)[number] } : {}),
            ...(fact.position !== undefined ? { position: fact.position } : {}),
            ...(fact.deadline !== undefined ? { deadline: fact.deadline } : {}),
          },
        }
      );
    }
    case 'ExecutionResult': {
      const audience = audienceOf(fact, fact.correlation.conversationId, shown);
      return (
        audience && {
          audience,
          frame: {
            type: 'execution_result',
            conversationId: audience.conversationId,
            executionId: fact.executionId,
            status: fact.status,
            ...(fact.output !== undefined ? { output: fact.output } : {}),
            ...(fact.error !== undefined ? { error: fact.error } : {}),
          },
        }
      );
    }
    case 'UIMessage': {
      // the user's own lines are for the router; only hireloop's replies go back to the sockets
      if (fact.role !== 'assistant') return undefined;
      return {
        audience: { orgId: fact.orgId, conversationId: fact.conversationId, userId: fact.userId },
        frame: { type: 'message', conversationId: fact.conversationId, text: fact.content },
      };
    }
    case 'TriggerCreated':
    case 'RunIntent':
    case 'HILResponse':
    case 'EmployeeActivated':
    case 'EmployeeDeactivated':
    case 'PolicyChanged':
    case 'ConnectionsChanged':
      return undefined;
    default: {
      const unhandled: never = fact;
      throw new Error(`unhandled fact ${(unhandled as AnyFact).type}`);
    }
  }
}

/**
 * A fact the broadcast consumer received: folded into what this instance saw live, and pushed to its
 * conversation's sockets unless it came after its execution's result (`comesAfterEnd`).
 */
export function broadcastFact(hub: BroadcastHub, fact: AnyFact): void {
  const late = 'executionId' in fact && comesAfterEnd(hub.live.get(fact.executionId));
  const seen = 'executionId' in fact ? hub.live.seenOf(fact.executionId) : undefined;
  const shown = 'executionId' in fact ? hub.live.shownIn(fact.executionId) : undefined;
  hub.live.record(fact);
  if (late) return;
  const outbound = outboundOf(fact, seen, shown);
  if (outbound) hub.deliver(outbound.audience, outbound.frame);
}

export const BROADCAST_TOPICS = [Topics.hilPrompt, Topics.executionEvents, Topics.executionResult, Topics.uiMessages] as const;

export interface BroadcastOptions {
  kafka: Kafka;
  topicPrefix: string;
  /** this instance's id: the consumer group is `gateway-<instanceId>`, so every instance sees every fact */
  instanceId: string;
  hub: BroadcastHub;
  /** for dead letters */
  publisher: FactPublisher;
  log: Logger;
  metrics?: StreamMetrics;
  /**
   * told of each `ConnectionsChanged` (the org's connections set in the Connect Hub): what this instance keeps of
   * the org's view is dropped, so a webhook of a provider just disconnected is refused at once, not seconds later
   */
  onConnectionsChanged?: (orgId: string) => void;
}

/** This instance's broadcast consumer. */
export class Broadcast {
  readonly groupId: string;
  private readonly consumer: FactConsumer;
  private started = false;

  constructor(private readonly options: BroadcastOptions) {
    this.groupId = `gateway-${options.instanceId}`;
    this.consumer = new FactConsumer({
      kafka: options.kafka,
      topicPrefix: options.topicPrefix,
      groupId: this.groupId,
      topics: options.onConnectionsChanged ? [...BROADCAST_TOPICS, Topics.orgConnections] : BROADCAST_TOPICS,
      log: options.log,
      publisher: options.publisher,
      ...(options.metrics ? { metrics: options.metrics } : {}),
      fromBeginning: false,
      retries: 0,
      partitionsConsumedConcurrently: 3,
    });
    const push = async (fact: AnyFact) => broadcastFact(this.options.hub, fact);
    for (const topic of BROADCAST_TOPICS) this.consumer.on(topic.fact, push);
    const changed = options.onConnectionsChanged;
    if (changed) this.consumer.on('ConnectionsChanged', async (fact) => changed(fact.orgId));
  }

  /** Joins the group (resolves once the partitions are assigned). */
  async start(): Promise<void> {
    await this.consumer.start();
    this.started = true;
  }

  get ready(): boolean {
    return this.started;
  }

  async stop(): Promise<void> {
    this.started = false;
    await this.consumer.stop();
  }
}
