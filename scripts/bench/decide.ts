/**
 * The decisions of `make bench`, pure: percentiles, the next offered rate while stepping the load,
 * whether a step was sustained, the issue's targets as ratios with a verdict, reading /proc, and the Kafka
 * clients' probe's costs. The orchestrators (main.ts, kafka-clients.ts) do the effects and ask these.
 */
import type { PartitionOffset, PartitionRange } from '@hireloop/fact-stream';

/** Nearest-rank percentile (p in 0..100) of unsorted samples; null when there are none. */
export function percentile(samples: readonly number[], p: number): number | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((Math.min(100, Math.max(0, p)) / 100) * sorted.length);
  return sorted[Math.max(0, rank - 1)] as number;
}

export interface Summary {
  n: number;
  p50: number | null;
  p90: number | null;
  p99: number | null;
  max: number | null;
}

export const summarize = (samples: readonly number[]): Summary => ({
  n: samples.length,
  p50: round(percentile(samples, 50)),
  p90: round(percentile(samples, 90)),
  p99: round(percentile(samples, 99)),
  max: round(samples.length ? Math.max(...samples) : null),
});

export function round(n: number | null, digits = 1): number | null {
  if (n === null || !Number.isFinite(n)) return null;
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

// ---- stepping the offered load

/** What one step of offered load did, as the stepping needs it. */
export interface StepOutcome {
  /** creations started per second, open loop */
  offered: number;
  started: number;
  completed: number;
  /** ended otherwise than `completed`, or an error frame, or a refused socket */
  failed: number;
  /** not ended within the per-creation timeout */
  timedOut: number;
  answerToNextP99Ms: number | null;
}

export interface Verdict {
  sustained: boolean;
  reason: string;
}

/** A rate is sustained when every creation completed and answer → next prompt p99 stayed under the limit. */
export function stepVerdict(step: StepOutcome, p99LimitMs = 250): Verdict {
  if (step.started === 0) return { sustained: false, reason: 'nothing started' };
  if (step.timedOut > 0) return { sustained: false, reason: `${step.timedOut} of ${step.started} timed out` };
  if (step.failed > 0) return { sustained: false, reason: `${step.failed} of ${step.started} failed` };
  if (step.completed < step.started) return { sustained: false, reason: `${step.started - step.completed} did not complete` };
  if (step.answerToNextP99Ms === null) return { sustained: false, reason: 'no answer was timed' };
  if (step.answerToNextP99Ms >= p99LimitMs)
    return { sustained: false, reason: `answer → next p99 ${step.answerToNextP99Ms} ms ≥ ${p99LimitMs} ms` };
  return { sustained: true, reason: `all ${step.completed} completed, p99 ${step.answerToNextP99Ms} ms` };
}

export interface SteppingPlan {
  /** the first offered rate (creations/s) */
  start: number;
  /** while every step is sustained, the next is this many times the last */
  factor: number;
  /** below this rate the search gives up (nothing sustained) */
  min: number;
  /** never offered above this */
  max: number;
  /** once bracketed, stop when the unsustained rate is within this ratio of the sustained one */
  resolution: number;
  /** at most this many steps in all */
  maxSteps: number;
}

export const roundRate = (r: number) => Math.round(r * 100) / 100;

/**
 * The next rate to offer given the steps so far, or null when the search is over: grow geometrically
 * while sustained, then bisect (geometric mean) between the highest sustained and the lowest
 * unsustained rate until they are within `resolution`; shrink when even the first rate failed.
 */
export function nextOfferedRate(history: readonly { offered: number; sustained: boolean }[], plan: SteppingPlan): number | null {
  if (history.length >= plan.maxSteps) return null;
  if (history.length === 0) return roundRate(Math.min(plan.start, plan.max));
  const good = history.filter((h) => h.sustained).map((h) => h.offered);
  const bad = history.filter((h) => !h.sustained).map((h) => h.offered);
  const lo = good.length ? Math.max(...good) : 0;
  const hiCandidates = bad.filter((b) => b > lo);
  if (hiCandidates.length === 0) {
    if (lo >= plan.max) return null;
    return roundRate(Math.min(plan.max, lo * plan.factor));
  }
  const hi = Math.min(...hiCandidates);
  if (lo === 0) {
    const next = roundRate(hi / plan.factor);
    return next < plan.min ? null : next;
  }
  if (hi / lo <= plan.resolution) return null;
  const next = roundRate(Math.sqrt(lo * hi));
  return next <= lo || next >= hi ? null : next;
}

/**
 * Whether the stack has warmed up: its CPU a creation (every process summed) read the same, within
 * `tolerance` (a share: 0.05 is 5 %), over the last `rounds` warm-up rounds in a row. A stack that has just
 * started spends its first hundreds of creations compiling — the broker's JIT (C2 threads took half of its
 * CPU over its first 180 creations) and V8 in every service — and the bare floor is measured warm in one
 * process, so the platform's CPU is compared once it has settled. A round with no figure settles nothing. Pure.
 */
export function warmedUp(cpuMsPerCreation: readonly (number | null)[], tolerance: number, rounds = 3): boolean {
  if (cpuMsPerCreation.length < rounds) return false;
  const last = cpuMsPerCreation.slice(-rounds);
  if (last.some((v) => v === null || !(v > 0))) return false;
  const values = last as number[];
  return Math.max(...values) <= Math.min(...values) * (1 + tolerance);
}

/** The highest offered rate that was sustained, 0 when none was. */
export const maxSustained = (history: readonly { offered: number; sustained: boolean }[]) =>
  Math.max(0, ...history.filter((h) => h.sustained).map((h) => h.offered));

/**
 * The facts that consumer groups have not yet committed past on the partitions their live members are
 * assigned, summed: 0 once every service handled what a step published. A partition a group has committed
 * nothing on counts from where it stood when the stack became ready (`starts`): a group that reads from the
 * beginning has handled nothing there, and one that reads from the latest offset has nothing to handle until
 * something is published. Pure.
 */
export function backlogOf(
  assigned: readonly PartitionOffset[],
  ends: readonly PartitionRange[],
  starts: readonly PartitionRange[],
): number {
  const at = (list: readonly PartitionRange[]) => new Map(list.map((e) => [`${e.topic}:${e.partition}`, BigInt(e.high)]));
  const end = at(ends);
  const start = at(starts);
  let backlog = 0n;
  for (const { topic, partition, offset: committed } of assigned) {
    const key = `${topic}:${partition}`;
    const high = end.get(key) ?? 0n;
    const position = BigInt(committed) >= 0n ? BigInt(committed) : (start.get(key) ?? 0n);
    if (high > position) backlog += high - position;
  }
  return Number(backlog);
}

// ---- /proc

/**
 * The share of the host's CPU time the hypervisor gave to other guests (steal) between two readings of
 * /proc/stat, in percent (one decimal); null when either lacks the `cpu` line or no time passed. A
 * virtual host shared with other work runs everything slower while it steals: a phase of a run that
 * lost much more than another is not comparable with it, so the bench reports it per phase.
 */
export function stealPctBetween(before: string, after: string): number | null {
  const times = (stat: string): number[] | null => {
    const line = /^cpu\s+([\d\s]+)$/m.exec(stat);
    return line ? (line[1] as string).trim().split(/\s+/).map(Number) : null;
  };
  const a = times(before);
  const b = times(after);
  if (!a || !b || a.length < 8 || b.length < 8) return null;
  // user nice system idle iowait irq softirq steal [guest guest_nice]: guest time is already in user
  const total = (t: number[]) => t.slice(0, 8).reduce((sum, v) => sum + v, 0);
  const elapsed = total(b) - total(a);
  if (!(elapsed > 0)) return null;
  return Math.round((((b[7] as number) - (a[7] as number)) / elapsed) * 1000) / 10;
}

/** How the host ran each phase a run compares: steal share (`stealPctBetween`) and core speed (`coreSpeedMs` in proc.ts). */
export interface HostPhases {
  stealPct: { bare: number | null; eventStore: number | null; platform: number | null };
  coreSpeedMs: { bare: number | null; eventStore: number | null; platform: number | null; end: number | null };
}

/**
 * What the run's notes say of the host: when its cores' speed moved by more than a quarter, or the
 * phases lost shares of its CPU more than 5 points apart (or any more than 10%). Pure.
 */
export function hostNotes({ stealPct, coreSpeedMs }: HostPhases): string[] {
  const notes: string[] = [];
  const speeds = Object.values(coreSpeedMs).filter((v): v is number => v !== null);
  if (speeds.length > 1 && Math.max(...speeds) > 1.25 * Math.min(...speeds))
    notes.push(
      `the host's cores ran the same work in ${speeds.join(', ')} ms (before the bare floor, the event store, the platform's steps, and at the end): its speed changed by more than a quarter during the run, so ratios across phases are skewed`,
    );
  const steals = Object.values(stealPct).filter((v): v is number => v !== null);
  if (steals.length > 1 && Math.max(...steals) - Math.min(...steals) > 5)
    notes.push(
      `the hypervisor took ${stealPct.bare ?? 'n/a'}% of the host's CPU during the bare floor, ${stealPct.eventStore ?? 'n/a'}% during the event store's and ${stealPct.platform ?? 'n/a'}% during the platform's steps: the phases ran on hosts of different speeds, so their ratios are skewed`,
    );
  else if (steals.some((v) => v > 10))
    notes.push(
      `the hypervisor took more than 10% of the host's CPU during this run (${JSON.stringify(stealPct)}): its absolute figures are not comparable with a quieter run's`,
    );
  return notes;
}

/** utime + stime in clock ticks from the text of /proc/<pid>/stat (the command may hold spaces and parentheses). */
export function cpuTicksOfStat(stat: string): number | null {
  const end = stat.lastIndexOf(')');
  if (end < 0) return null;
  const fields = stat
    .slice(end + 2)
    .trim()
    .split(/\s+/);
  // fields[0] is field 3 (state): utime is field 14, stime field 15
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? utime + stime : null;
}

/** CPU ticks per pid, per group of processes. */
export type TicksReading = Record<string, ReadonlyMap<number, number>>;

/**
 * Ticks each group spent between a first reading and the last ticks seen of each pid since: a pid first
 * seen after the first reading (a Postgres backend opened during the window, a restarted process) counts
 * from zero, one gone before the end counts up to its last sample. Null for a group never seen.
 */
export function ticksSince(first: TicksReading, last: TicksReading): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const name of new Set([...Object.keys(first), ...Object.keys(last)])) {
    const before = first[name] ?? new Map<number, number>();
    const after = last[name] ?? new Map<number, number>();
    out[name] =
      after.size === 0 ? null : [...after].reduce((sum, [pid, ticks]) => sum + Math.max(0, ticks - (before.get(pid) ?? 0)), 0);
  }
  return out;
}

/** VmRSS in MB from the text of /proc/<pid>/status. */
export function rssMbOfStatus(status: string): number | null {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return match ? Math.round((Number(match[1]) / 1024) * 10) / 10 : null;
}

/**
 * CPU ms per creation of each process over a loaded window, less what it burns idle (timers, consumers
 * polling) over the same time: `idleTicksPerS` measured on the same processes with no load. Never below 0.
 */
export function netCpuMsPerCreation(
  loadedTicks: Readonly<Record<string, number | null>>,
  idleTicksPerS: Readonly<Record<string, number | null>>,
  seconds: number,
  creations: number,
  ticksPerSecond = 100,
): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const [name, ticks] of Object.entries(loadedTicks)) {
    if (ticks === null || creations <= 0) {
      out[name] = null;
      continue;
    }
    const idle = (idleTicksPerS[name] ?? 0) * seconds;
    out[name] = round((Math.max(0, ticks - idle) * 1000) / ticksPerSecond / creations);
  }
  return out;
}

// ---- the targets, as ratios measured side by side

export interface BenchFigures {
  floors: {
    kafkaHopP50Ms: number | null;
    bare: {
      creationsPerS: number | null;
      resumeP50Ms: number | null;
      cpuMsPerCreation: number | null;
      /** the CPU of the Postgres backends serving the bare process (absent when not measured) */
      postgresCpuMsPerCreation?: number | null;
    };
  };
  platform: {
    creationsPerS: number;
    answerToNextP50Ms: number | null;
    answerToNextP99Ms: number | null;
    cpuMsPerCreation: Record<string, number | null>;
  };
  eventStore: { projectorFactsPerS: number | null; replayFactsPerS: number | null };
  memory: { workerRssMbWith10kPaused: number | null };
}

export interface TargetVerdict {
  id: string;
  target: string;
  measured: string;
  /** measured ÷ allowed (≥ 1 passes for a floor, ≤ 1 for a ceiling); null when a figure is missing */
  ratio: number | null;
  pass: boolean | null;
}

const verdict = (
  id: string,
  target: string,
  measured: number | null,
  bound: number | null,
  kind: 'atLeast' | 'atMost' | 'below',
  show: (m: number, b: number) => string,
): TargetVerdict => {
  if (measured === null || bound === null || !Number.isFinite(bound))
    return { id, target, measured: 'n/a', ratio: null, pass: null };
  const ratio = bound === 0 ? (measured === 0 ? 1 : Number.POSITIVE_INFINITY) : round(measured / bound, 2);
  const pass = kind === 'atLeast' ? measured >= bound : kind === 'atMost' ? measured <= bound : measured < bound;
  return { id, target, measured: show(measured, bound), ratio, pass };
};

const sumOf = (values: Record<string, number | null>): number | null => {
  const known = Object.values(values).filter((v): v is number => v !== null);
  return known.length ? round(known.reduce((a, b) => a + b, 0)) : null;
};

/** Every target of issue 16, measured against the floors of the same run. */
export function targetVerdicts(f: BenchFigures): TargetVerdict[] {
  const bare = f.floors.bare;
  const hop = f.floors.kafkaHopP50Ms;
  const allowedP50 = bare.resumeP50Ms !== null && hop !== null ? round(bare.resumeP50Ms + 2 * hop + 5) : null;
  const cpu = sumOf(f.platform.cpuMsPerCreation);
  return [
    verdict(
      'throughput',
      'platform.creationsPerS ≥ 1.0 × bare',
      f.platform.creationsPerS,
      bare.creationsPerS,
      'atLeast',
      (m, b) => `${m}/s vs bare ${b}/s`,
    ),
    verdict(
      'answerP50',
      'answer → next p50 ≤ bare resume p50 + 2 Kafka hops + 5 ms',
      f.platform.answerToNextP50Ms,
      allowedP50,
      'atMost',
      (m, b) => `${m} ms vs ${b} ms`,
    ),
    verdict(
      'answerP99',
      'answer → next p99 ≤ 3 × p50 at half the maximum rate',
      f.platform.answerToNextP99Ms,
      f.platform.answerToNextP50Ms === null ? null : 3 * f.platform.answerToNextP50Ms,
      'atMost',
      (m, b) => `${m} ms vs ${round(b)} ms`,
    ),
    verdict(
      'cpu',
      'CPU per creation, every service summed ≤ 2 × bare',
      cpu,
      bare.cpuMsPerCreation === null ? null : 2 * bare.cpuMsPerCreation,
      'atMost',
      (m, b) => `${m} ms vs ${round(b)} ms`,
    ),
    // the same target with the bare library's own Postgres backends counted, as the platform's sum counts
    // its run's: both sides then hold the database work their checkpoints cost
    verdict(
      'cpuWithPostgres',
      'the same, the bare library’s Postgres backends counted too',
      cpu,
      bare.cpuMsPerCreation === null || bare.postgresCpuMsPerCreation == null
        ? null
        : 2 * (bare.cpuMsPerCreation + bare.postgresCpuMsPerCreation),
      'atMost',
      (m, b) => `${m} ms vs ${round(b)} ms`,
    ),
    verdict(
      'workerRss',
      'worker RSS with 10,000 paused < 300 MB',
      f.memory.workerRssMbWith10kPaused,
      300,
      'below',
      (m, b) => `${m} MB vs ${b} MB`,
    ),
    verdict(
      'projector',
      'event store projector ≥ 20,000 facts/s',
      f.eventStore.projectorFactsPerS,
      20_000,
      'atLeast',
      (m, b) => `${m}/s vs ${b}/s`,
    ),
    verdict(
      'replay',
      'event store replay ≥ 100,000 facts/s',
      f.eventStore.replayFactsPerS,
      100_000,
      'atLeast',
      (m, b) => `${m}/s vs ${b}/s`,
    ),
  ];
}

// ---- duplicates in the facts of a scale-out run

export interface FactRow {
  executionId: string;
  type: string;
  promptId: string | null;
}

/**
 * Stored facts (distinct ids: a redelivered fact is stored once) that say one execution ran twice: more
 * than one result of an execution, more than one prompt fact for one promptId.
 */
export function duplicatesOf(rows: readonly FactRow[]): { results: number; prompts: number } {
  const count = (key: (r: FactRow) => string | null) => {
    const seen = new Map<string, number>();
    for (const r of rows) {
      const k = key(r);
      if (k !== null) seen.set(k, (seen.get(k) ?? 0) + 1);
    }
    return [...seen.values()].filter((n) => n > 1).length;
  };
  return {
    results: count((r) => (r.type === 'ExecutionResult' ? r.executionId : null)),
    prompts: count((r) => (r.type === 'HILPrompt' && r.promptId ? `${r.executionId}/${r.promptId}` : null)),
  };
}

// ---- where the worker's time goes

/** Sum (s) and count of one series of the worker's `hireloop_worker_stage_seconds`, by `handled/stage`. */
export type StageTotals = Record<string, { sum: number; count: number }>;

/** Reads the worker's stage histogram out of its `/metrics` text. */
export function stageTotalsOf(metricsText: string): StageTotals {
  const out: StageTotals = {};
  const line = /^hireloop_worker_stage_seconds_(sum|count)\{([^}]*)\} (\S+)$/gm;
  for (const [, kind, labels, value] of metricsText.matchAll(line)) {
    const handled = /handled="([^"]*)"/.exec(labels ?? '')?.[1];
    const stage = /stage="([^"]*)"/.exec(labels ?? '')?.[1];
    if (!handled || !stage) continue;
    const key = `${handled}/${stage}`;
    const entry = out[key] ?? { sum: 0, count: 0 };
    entry[kind as 'sum' | 'count'] = Number(value);
    out[key] = entry;
  }
  return out;
}

/** The mean ms per delivery of each stage between two readings (stages not observed meanwhile are left out). */
export function stageMeansMs(before: StageTotals, after: StageTotals): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const [key, now] of Object.entries(after)) {
    const count = now.count - (before[key]?.count ?? 0);
    if (count <= 0) continue;
    out[key] = round((1000 * (now.sum - (before[key]?.sum ?? 0))) / count, 2);
  }
  return out;
}

// ---- the Kafka clients' probe (kafka-clients.ts)

/** What one probe process reports every window: facts handled, and its CPU (every thread) over the window. */
export interface ClientWindow {
  facts: number;
  cpuMs: number;
  latencyP50Ms?: number | undefined;
  latencyP99Ms?: number | undefined;
}

export interface ClientCost {
  /** the median over the windows after the warm-up, null when none is left */
  cpuMsPerFact: number | null;
  /** each window after the warm-up, as read */
  windows: (number | null)[];
  latencyP50Ms: number | null;
  latencyP99Ms: number | null;
}

/**
 * A client's CPU per fact once warm: the first `warmWindows` windows are left out (the compiler's, not the
 * client's), so are windows that handled nothing; then the median, and the median of the latencies.
 */
export function warmCostOf(windows: readonly ClientWindow[], warmWindows: number): ClientCost {
  const warm = windows.slice(warmWindows).filter((w) => w.facts > 0);
  const perFact = warm.map((w) => w.cpuMs / w.facts);
  const latencies = (pick: (w: ClientWindow) => number | undefined) =>
    percentile(
      warm.flatMap((w) => (pick(w) === undefined ? [] : [pick(w) as number])),
      50,
    );
  return {
    cpuMsPerFact: round(percentile(perFact, 50), 3),
    windows: perFact.map((x) => round(x, 3)),
    latencyP50Ms: latencies((w) => w.latencyP50Ms),
    latencyP99Ms: latencies((w) => w.latencyP99Ms),
  };
}

/**
 * The broker's CPU per fact consumed by one consumer: its CPU over a window with the consumer, less the
 * mean of the windows just before and just after it with the producer alone (the broker's own drift over
 * minutes cancels), over the facts fed in the window. Null when nothing was fed.
 */
export function brokerCpuMsPerFactConsumed(
  withConsumerMs: number,
  aloneBeforeMs: number,
  aloneAfterMs: number,
  factsFed: number,
): number | null {
  if (factsFed <= 0) return null;
  return round((withConsumerMs - (aloneBeforeMs + aloneAfterMs) / 2) / factsFed, 3);
}

// ---- the table

/** Rows of label / value as a two-column text table. */
export function renderTable(title: string, rows: readonly (readonly [string, string])[]): string {
  const width = Math.max(title.length, ...rows.map(([k]) => k.length));
  const lines = [title, '-'.repeat(Math.min(100, width + 30))];
  for (const [k, v] of rows) lines.push(`${k.padEnd(width)}  ${v}`);
  return lines.join('\n');
}

export const fmtMs = (n: number | null) => (n === null ? 'n/a' : `${n} ms`);
export const fmtRate = (n: number | null, unit = '/s') => (n === null ? 'n/a' : `${n.toLocaleString('en-US')}${unit}`);
