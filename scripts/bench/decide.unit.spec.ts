import { describe, expect, it } from 'vitest';
import {
  type BenchFigures,
  backlogOf,
  brokerCpuMsPerFactConsumed,
  cpuTicksOfStat,
  duplicatesOf,
  hostNotes,
  maxSustained,
  netCpuMsPerCreation,
  nextOfferedRate,
  percentile,
  rssMbOfStatus,
  type SteppingPlan,
  stageMeansMs,
  stageTotalsOf,
  stealPctBetween,
  stepVerdict,
  summarize,
  targetVerdicts,
  ticksSince,
  warmCostOf,
  warmedUp,
} from './decide';

const plan: SteppingPlan = { start: 1, factor: 2, min: 0.25, max: 64, resolution: 1.25, maxSteps: 10 };

describe('percentiles', () => {
  it('nearest rank: p50 of 1..100 is 50, p99 is 99, p100 the max; none → null', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 99)).toBe(99);
    expect(percentile(xs, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNull();
  });
  it('summarize rounds to a tenth and counts', () => {
    expect(summarize([1.04, 2.06, 3])).toEqual({ n: 3, p50: 2.1, p90: 3, p99: 3, max: 3 });
    expect(summarize([])).toEqual({ n: 0, p50: null, p90: null, p99: null, max: null });
  });
});

describe('a step of offered load', () => {
  const ok = { offered: 2, started: 20, completed: 20, failed: 0, timedOut: 0, answerToNextP99Ms: 200 };
  it('is sustained when all completed and p99 is under 250 ms', () => {
    expect(stepVerdict(ok).sustained).toBe(true);
  });
  it('is not when p99 reaches the limit, one timed out or failed, or nothing ran', () => {
    expect(stepVerdict({ ...ok, answerToNextP99Ms: 250 }).sustained).toBe(false);
    expect(stepVerdict({ ...ok, timedOut: 1, completed: 19 }).reason).toMatch(/timed out/);
    expect(stepVerdict({ ...ok, failed: 1, completed: 19 }).reason).toMatch(/failed/);
    expect(stepVerdict({ ...ok, started: 0, completed: 0 }).sustained).toBe(false);
    expect(stepVerdict({ ...ok, answerToNextP99Ms: null }).sustained).toBe(false);
  });
});

describe('stepping the offered load', () => {
  it('starts at the plan’s rate and doubles while sustained', () => {
    expect(nextOfferedRate([], plan)).toBe(1);
    expect(nextOfferedRate([{ offered: 1, sustained: true }], plan)).toBe(2);
    expect(
      nextOfferedRate(
        [
          { offered: 1, sustained: true },
          { offered: 2, sustained: true },
        ],
        plan,
      ),
    ).toBe(4);
  });
  it('bisects geometrically between the highest sustained and the lowest unsustained rate, then stops', () => {
    const h = [
      { offered: 1, sustained: true },
      { offered: 2, sustained: true },
      { offered: 4, sustained: false },
    ];
    expect(nextOfferedRate(h, plan)).toBe(2.83);
    const h2 = [...h, { offered: 2.83, sustained: true }];
    expect(nextOfferedRate(h2, plan)).toBe(3.36);
    const h3 = [...h2, { offered: 3.36, sustained: false }];
    // 3.36 / 2.83 ≤ 1.25: bracketed closely enough
    expect(nextOfferedRate(h3, plan)).toBeNull();
    expect(maxSustained(h3)).toBe(2.83);
  });
  it('shrinks when even the first rate fails, and gives up under the minimum', () => {
    expect(nextOfferedRate([{ offered: 1, sustained: false }], plan)).toBe(0.5);
    expect(
      nextOfferedRate(
        [
          { offered: 1, sustained: false },
          { offered: 0.5, sustained: false },
          { offered: 0.25, sustained: false },
        ],
        plan,
      ),
    ).toBeNull();
    expect(maxSustained([{ offered: 1, sustained: false }])).toBe(0);
  });
  it('is bounded: never more than maxSteps steps, never above max', () => {
    const h = Array.from({ length: 10 }, (_, i) => ({ offered: i + 1, sustained: true }));
    expect(nextOfferedRate(h, plan)).toBeNull();
    expect(nextOfferedRate([{ offered: 40, sustained: true }], plan)).toBe(64);
    expect(nextOfferedRate([{ offered: 64, sustained: true }], plan)).toBeNull();
  });
});

describe('the backlog a step leaves behind', () => {
  const starts = [
    { topic: 't.runIntent', partition: 0, low: '0', high: '0' },
    { topic: 't.runIntent', partition: 1, low: '0', high: '0' },
    { topic: 't.org-connections', partition: 0, low: '0', high: '5' },
  ];
  const ends = [
    { topic: 't.runIntent', partition: 0, low: '0', high: '10' },
    { topic: 't.runIntent', partition: 1, low: '0', high: '7' },
    { topic: 't.org-connections', partition: 0, low: '0', high: '5' },
  ];
  /** what a group committed on a partition its live member is assigned */
  const at = (topic: string, partition: number, offset: string) => ({ topic, partition, offset });

  it('given every assigned partition committed up to its end, then nothing is left', () => {
    const assigned = [at('t.runIntent', 0, '10'), at('t.runIntent', 1, '7')];
    expect(backlogOf(assigned, ends, starts)).toBe(0);
  });

  it('given a group behind on two partitions, then the facts it has not handled are summed', () => {
    const assigned = [at('t.runIntent', 0, '6'), at('t.runIntent', 1, '5')];
    expect(backlogOf(assigned, ends, starts)).toBe(6);
  });

  it('given a partition a group has not committed on yet, then it counts from where it stood when the stack was ready', () => {
    // the event store, reading from the beginning, has not committed the facts of a new partition yet
    expect(backlogOf([at('t.runIntent', 1, '-1')], ends, starts)).toBe(7);
    // a reader from the latest offset, with nothing published since it joined, has nothing to handle
    expect(backlogOf([at('t.org-connections', 0, '-1')], ends, starts)).toBe(0);
  });
});

describe('/proc', () => {
  it('reads utime + stime even when the command holds spaces and parentheses', () => {
    const stat = '1234 (node (a b)) S 1 1234 1234 0 -1 4194304 100 0 0 0 250 50 0 0 20 0 11 0 123 456 789';
    expect(cpuTicksOfStat(stat)).toBe(300);
    expect(cpuTicksOfStat('garbage')).toBeNull();
  });
  it('reads VmRSS in MB', () => {
    expect(rssMbOfStatus('Name:\tnode\nVmRSS:\t  204800 kB\nThreads: 11\n')).toBe(200);
    expect(rssMbOfStatus('Name: x')).toBeNull();
  });
  it('CPU per creation net of what the process burns idle over the same time', () => {
    // 500 ticks in 10 s, 20 ticks/s idle: 300 ticks for 10 creations = 300 ms each
    expect(netCpuMsPerCreation({ worker: 500, gone: null }, { worker: 20 }, 10, 10)).toEqual({ worker: 300, gone: null });
    expect(netCpuMsPerCreation({ worker: 100 }, { worker: 20 }, 10, 10)).toEqual({ worker: 0 });
    expect(netCpuMsPerCreation({ worker: 100 }, {}, 10, 0)).toEqual({ worker: null });
  });
});

describe('duplicates in the stored facts of a scale-out run', () => {
  it('counts executions with two results and prompts stored twice', () => {
    expect(
      duplicatesOf([
        { executionId: 'a', type: 'ExecutionResult', promptId: null },
        { executionId: 'a', type: 'ExecutionResult', promptId: null },
        { executionId: 'b', type: 'ExecutionResult', promptId: null },
        { executionId: 'b', type: 'HILPrompt', promptId: 'p1' },
        { executionId: 'b', type: 'HILPrompt', promptId: 'p2' },
        { executionId: 'c', type: 'HILPrompt', promptId: 'p1' },
        { executionId: 'c', type: 'HILPrompt', promptId: 'p1' },
      ]),
    ).toEqual({ results: 1, prompts: 1 });
  });
});

describe('CPU ticks of a window from samples', () => {
  it('given a pid at both ends, a pid born in the window and one gone before its end, then each counts its part in the window', () => {
    const first = {
      postgres: new Map([
        [1, 100],
        [2, 50],
      ]),
      worker: new Map([[9, 1_000]]),
    };
    // pid 2 ended after a sample at 70; pid 3 was opened during the window
    const last = {
      postgres: new Map([
        [1, 130],
        [2, 70],
        [3, 40],
      ]),
      worker: new Map([[9, 1_250]]),
    };
    expect(ticksSince(first, last)).toEqual({ postgres: 30 + 20 + 40, worker: 250 });
  });

  it('given a group never seen, then null rather than zero', () => {
    expect(ticksSince({ broker: new Map() }, { broker: new Map() })).toEqual({ broker: null });
  });
});

describe('targets as ratios', () => {
  const figures: BenchFigures = {
    floors: { kafkaHopP50Ms: 3, bare: { creationsPerS: 30, resumeP50Ms: 14, cpuMsPerCreation: 38 } },
    platform: { creationsPerS: 6, answerToNextP50Ms: 160, answerToNextP99Ms: 400, cpuMsPerCreation: { worker: 90, broker: 57 } },
    eventStore: { projectorFactsPerS: 25_000, replayFactsPerS: null },
    memory: { workerRssMbWith10kPaused: 250 },
  };
  it('says pass or miss per target, with the ratio measured ÷ allowed', () => {
    const v = Object.fromEntries(targetVerdicts(figures).map((t) => [t.id, t]));
    expect(v.throughput).toMatchObject({ pass: false, ratio: 0.2 });
    // allowed p50 = 14 + 2 × 3 + 5 = 25
    expect(v.answerP50).toMatchObject({ pass: false, ratio: 6.4 });
    expect(v.answerP99).toMatchObject({ pass: true });
    // 147 ms summed vs 76 ms allowed
    expect(v.cpu).toMatchObject({ pass: false, ratio: 1.93 });
    // not measured: no verdict rather than one against the process alone
    expect(v.cpuWithPostgres).toMatchObject({ pass: null, measured: 'n/a' });
    expect(v.workerRss).toMatchObject({ pass: true });
    expect(v.projector).toMatchObject({ pass: true });
    expect(v.replay).toMatchObject({ pass: null, measured: 'n/a' });
  });

  it('given the bare library’s Postgres CPU, then the CPU target is also judged with it on both sides', () => {
    const withPg = { ...figures, floors: { ...figures.floors, bare: { ...figures.floors.bare, postgresCpuMsPerCreation: 12 } } };
    const v = Object.fromEntries(targetVerdicts(withPg).map((t) => [t.id, t]));
    // 147 ms summed vs 2 × (38 + 12) = 100 ms allowed
    expect(v.cpuWithPostgres).toMatchObject({ pass: false, ratio: 1.47 });
    expect(v.cpu).toMatchObject({ pass: false, ratio: 1.93 });
  });
});

describe("where the worker's time goes", () => {
  const metrics = (locked: number, count: number) => `# HELP hireloop_worker_stage_seconds time per delivery
# TYPE hireloop_worker_stage_seconds histogram
hireloop_worker_stage_seconds_bucket{le="0.001",handled="answer",stage="locked"} 1
hireloop_worker_stage_seconds_sum{handled="answer",stage="locked"} ${locked}
hireloop_worker_stage_seconds_count{handled="answer",stage="locked"} ${count}
hireloop_worker_stage_seconds_sum{handled="start",stage="ran"} 2.5
hireloop_worker_stage_seconds_count{handled="start",stage="ran"} 50
hireloop_http_request_duration_seconds_sum{method="GET",route="/metrics",status="200"} 9
`;

  it('given the metrics text, then each stage reads as its sum and count, other families ignored', () => {
    expect(stageTotalsOf(metrics(0.004, 4))).toEqual({
      'answer/locked': { sum: 0.004, count: 4 },
      'start/ran': { sum: 2.5, count: 50 },
    });
  });

  it('given two readings, then each stage is its mean in ms over the deliveries between them', () => {
    const means = stageMeansMs(stageTotalsOf(metrics(0.004, 4)), stageTotalsOf(metrics(0.024, 14)));
    expect(means).toEqual({ 'answer/locked': 2 });
  });

  it('given a stage first seen in the second reading, then it counts from zero', () => {
    expect(stageMeansMs({}, stageTotalsOf(metrics(0.01, 5)))).toEqual({ 'answer/locked': 2, 'start/ran': 50 });
  });
});

describe('steal: the host CPU the hypervisor gave elsewhere', () => {
  const stat = (user: number, idle: number, steal: number) =>
    `cpu  ${user} 0 100 ${idle} 5 0 10 ${steal} 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 1 2 3\n`;

  it('given two readings, when compared, then steal is its share of all the time that passed, in percent', () => {
    // 1000 ticks passed: 600 user, 200 idle, 200 stolen
    expect(stealPctBetween(stat(1000, 5000, 50), stat(1600, 5200, 250))).toBe(20);
  });

  it('given guest columns, when compared, then they are not counted twice (already in user)', () => {
    const before = 'cpu  100 0 0 100 0 0 0 0 0 0\n';
    const after = 'cpu  190 0 0 200 0 0 0 10 90 0\n';
    expect(stealPctBetween(before, after)).toBe(5);
  });

  it('given a reading without the cpu line or no time passed, then it is unknown', () => {
    expect(stealPctBetween('intr 1 2\n', stat(1, 1, 1))).toBeNull();
    expect(stealPctBetween(stat(1, 1, 1), stat(1, 1, 1))).toBeNull();
  });
});

describe('what the notes say of the host', () => {
  const even = { bare: 7, eventStore: 7.2, platform: 7.4, end: 7.1 };
  it('given steady cores and little steal, then nothing is said', () => {
    expect(hostNotes({ stealPct: { bare: 0.2, eventStore: 0.1, platform: 1 }, coreSpeedMs: even })).toEqual([]);
  });

  it('given cores a third slower before the platform steps, then the run says its ratios are skewed', () => {
    const notes = hostNotes({ stealPct: { bare: 0, eventStore: 0, platform: 0 }, coreSpeedMs: { ...even, platform: 9.35 } });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('7, 7.2, 9.35, 7.1 ms');
  });

  it('given phases that lost shares more than 5 points apart, then it names each share', () => {
    const notes = hostNotes({ stealPct: { bare: 22.3, eventStore: 0, platform: 0.2 }, coreSpeedMs: even });
    expect(notes).toEqual([expect.stringContaining('took 22.3% of the host')]);
  });

  it('given every phase losing more than 10% alike, then the absolute figures are said not to compare', () => {
    const notes = hostNotes({ stealPct: { bare: 12, eventStore: 13, platform: 14 }, coreSpeedMs: even });
    expect(notes).toEqual([expect.stringContaining('not comparable with a quieter run')]);
  });
});

describe("the Kafka clients' probe", () => {
  it('given windows of a warming client, when costed, then the warm-up and empty windows are left out and the median taken', () => {
    const windows = [
      { facts: 2000, cpuMs: 1500, latencyP50Ms: 3, latencyP99Ms: 900 }, // warm-up: left out
      { facts: 2000, cpuMs: 500, latencyP50Ms: 1, latencyP99Ms: 2 },
      { facts: 0, cpuMs: 40 }, // nothing handled: left out
      { facts: 2000, cpuMs: 400, latencyP50Ms: 1, latencyP99Ms: 3 },
      { facts: 1000, cpuMs: 300, latencyP50Ms: 2, latencyP99Ms: 4 },
    ];
    expect(warmCostOf(windows, 1)).toEqual({
      cpuMsPerFact: 0.25,
      windows: [0.25, 0.2, 0.3],
      latencyP50Ms: 1,
      latencyP99Ms: 3,
    });
  });

  it('given only warm-up windows, when costed, then there is no figure', () => {
    expect(warmCostOf([{ facts: 100, cpuMs: 50 }], 1)).toEqual({
      cpuMsPerFact: null,
      windows: [],
      latencyP50Ms: null,
      latencyP99Ms: null,
    });
  });

  it("given a broker whose own CPU drifts, when a consumer's share is taken, then the windows around it cancel the drift", () => {
    // producer alone: 400 ms before, 600 after; with the consumer 1200 ms; 4000 facts fed
    expect(brokerCpuMsPerFactConsumed(1200, 400, 600, 4000)).toBe(0.175);
    // a consumer that costs the broker nothing reads about zero, not the drift
    expect(brokerCpuMsPerFactConsumed(500, 400, 600, 4000)).toBe(0);
    expect(brokerCpuMsPerFactConsumed(500, 400, 600, 0)).toBeNull();
  });
});

describe('warming the stack up before it is measured', () => {
  it('given CPU a creation still falling by more than the tolerance over the last three rounds, when asked, then it is not warm', () => {
    expect(warmedUp([193, 138, 130, 118], 0.05)).toBe(false);
    expect(warmedUp([118, 112, 108], 0.05)).toBe(false);
  });
  it('given the last three rounds within the tolerance of each other, when asked, then it is warm', () => {
    expect(warmedUp([193, 138, 112, 109, 108], 0.05)).toBe(true);
    expect(warmedUp([100, 104.9, 102], 0.05)).toBe(true);
  });
  it('given fewer rounds than it compares, when asked, then it is not warm', () => {
    expect(warmedUp([], 0.05)).toBe(false);
    expect(warmedUp([100, 100], 0.05)).toBe(false);
    expect(warmedUp([100, 100], 0.05, 2)).toBe(true);
  });
  it('given a round with no figure (nothing completed) among the last ones, when asked, then it is not warm', () => {
    expect(warmedUp([null, 100, 100, 100], 0.05)).toBe(true);
    expect(warmedUp([100, 100, null], 0.05)).toBe(false);
    expect(warmedUp([0, 0, 0], 0.05)).toBe(false);
  });
});
