/**
 * The Kafka client's own cost, measured side by side in one run: kafkajs (what every service uses) against
 * librdkafka through node-rdkafka, in the regime of the platform's hot path — one fact per produce request
 * (an awaited send, idempotent, as `FactPublisher` sends), and a consumer that gets facts as they come (a
 * fetch returns as soon as one arrives). Run by `scripts/bench/kafka-clients.sh`, which installs node-rdkafka
 * outside the project's dependencies (it builds librdkafka from source: not something every `make up`
 * should pay for while no service uses it).
 *
 * Three phases against the broker of `make up` (127.0.0.1:9092 unless KAFKA_BROKERS says otherwise), each
 * on topics of its own with 6 partitions, JSON values of about 415 bytes:
 * 1. producers: one process per client, each sending `rate` facts a second to its own topic, at once;
 * 2. consumers: one process per client, each in its own group on the same topic, fed at `rate` a second;
 * 3. the broker's side of consuming: the broker's CPU per fact with only the producer running, then with
 *    the kafkajs consumer, alone again, with the librdkafka one, alone again (never both consumers at once;
 *    each against the mean of the windows around it).
 * Each process reports its CPU (every thread: `process.cpuUsage`) per fact in 10 s windows; the first
 * `warm` seconds are left out (both V8's and the broker's JIT compile their hot paths then: a figure from a
 * cold process reads the compiler). Output: a table and one JSON line, written to
 * `bench-results/kafka-clients-<timestamp>.json`.
 *
 *   scripts/bench/kafka-clients.sh [--rate 200] [--seconds 90] [--warm 40]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createKafka, createLogger } from '@hireloop/platform';
import { brokerCpuMsPerFactConsumed, type ClientWindow, warmCostOf } from './decide';
import { CLK_TCK, pidsMatching, ticksOf } from './proc';

const root = fileURLToPath(new URL('../../', import.meta.url));
const brokers = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
/** node-rdkafka, installed by kafka-clients.sh under .run/kafka-clients (not a dependency of the project) */
const rdkafkaDir = process.env.RDKAFKA_DIR ?? `${root}.run/kafka-clients/`;
// biome-ignore lint/suspicious/noExplicitAny: node-rdkafka is loaded at run time from outside the workspace
const loadRdkafka = (): any => createRequire(rdkafkaDir)('node-rdkafka');

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const WINDOW_MS = 10_000;
/** kafkajs as every service builds it (its timeouts, retries and log levels); its warnings are passed on to stderr */
const kafkajs = (clientId: string) => createKafka({ clientId, brokers, log: createLogger('kafka-clients', 'warn') });
const PAD = 'x'.repeat(380);

// ---- roles: each runs as its own process and prints one JSON line per window

/** Reports CPU and facts handled every window; `stopAt` ends the process. */
function reportWindows(count: () => number, latencies: number[] | null, seconds: number, stop: () => Promise<void>) {
  let cpu = process.cpuUsage();
  let handled = 0;
  let elapsed = 0;
  const timer = setInterval(() => {
    elapsed += WINDOW_MS;
    const used = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    const now = count();
    const sorted = latencies ? latencies.splice(0).sort((a, b) => a - b) : [];
    const window: ClientWindow = {
      facts: now - handled,
      cpuMs: (used.user + used.system) / 1000,
      latencyP50Ms: sorted[Math.floor(sorted.length / 2)],
      latencyP99Ms: sorted[Math.floor(sorted.length * 0.99)],
    };
    handled = now;
    console.log(JSON.stringify(window));
    if (elapsed >= seconds * 1000) {
      clearInterval(timer);
      // a client that hangs in its close (node-rdkafka's consumer, seen here) does not hold the run
      setTimeout(() => process.exit(0), 10_000);
      void stop().then(() => process.exit(0));
    }
  }, WINDOW_MS);
}

const factValue = (n: number) => JSON.stringify({ n, ts: Date.now(), pad: PAD });

/** Sends `rate` facts a second, one awaited send each, until `ended()`; resolves once the last send has. */
async function paced(rate: number, ended: () => boolean, send: (n: number) => Promise<void>): Promise<number> {
  let n = 0;
  const start = Date.now();
  while (!ended()) {
    const due = Math.floor(((Date.now() - start) / 1000) * rate);
    while (n < due && !ended()) await send(n++);
    await sleep(5);
  }
  return n;
}

/** Paces sends until the last window is reported, then closes the client once the last send is done. */
function producing(rate: number, seconds: number, send: (n: number) => Promise<void>, close: () => Promise<void>) {
  let sent = 0;
  let ended = false;
  const loop = paced(
    rate,
    () => ended,
    async (n) => {
      await send(n);
      sent++;
    },
  );
  reportWindows(
    () => sent,
    null,
    seconds,
    async () => {
      ended = true;
      await loop;
      await close();
    },
  );
}

async function produceKafkajs(topic: string, rate: number, seconds: number) {
  const kafka = kafkajs('kafka-clients-kafkajs');
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  producing(
    rate,
    seconds,
    async (n) => {
      await producer.send({ topic, messages: [{ key: `k${n % 97}`, value: factValue(n) }] });
    },
    () => producer.disconnect(),
  );
}

async function produceRdkafka(topic: string, rate: number, seconds: number) {
  const rdkafka = loadRdkafka();
  // delivered once acknowledged, one at a time: what an awaited kafkajs send is
  const producer = new rdkafka.Producer({
    'metadata.broker.list': brokers.join(','),
    'enable.idempotence': true,
    'linger.ms': 0,
    'socket.nagle.disable': true,
    dr_cb: true,
  });
  const pending = new Map<number, (err: unknown) => void>();
  producer.on('delivery-report', (err: unknown, report: { opaque: number }) => {
    pending.get(report.opaque)?.(err);
    pending.delete(report.opaque);
  });
  producer.setPollInterval(5);
  await new Promise((resolve) => {
    producer.on('ready', resolve);
    producer.connect();
  });
  producing(
    rate,
    seconds,
    (n) =>
      new Promise<void>((resolve, reject) => {
        pending.set(n, (err) => (err ? reject(err) : resolve()));
        producer.produce(topic, null, Buffer.from(factValue(n)), `k${n % 97}`, Date.now(), n);
      }),
    () => new Promise((r) => producer.disconnect(r)),
  );
}

async function consumeKafkajs(topic: string, seconds: number) {
  const kafka = kafkajs('kafka-clients-kafkajs');
  // the group settings of FactConsumer, and its commits: by hand, once a second (kafkajs' own auto-commit
  // commits after every batch, whatever its interval says)
  const consumer = kafka.consumer({ groupId: `${topic}-kafkajs`, sessionTimeout: 10_000, heartbeatInterval: 1_000 });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: false });
  let handled = 0;
  const latencies: number[] = [];
  const next = new Map<number, string>();
  await consumer.run({
    autoCommit: false,
    eachMessage: async ({ partition, message }) => {
      latencies.push(Date.now() - (JSON.parse(String(message.value)) as { ts: number }).ts);
      next.set(partition, String(BigInt(message.offset) + 1n));
      handled++;
    },
  });
  const commit = () => {
    const offsets = [...next].map(([partition, offset]) => ({ topic, partition, offset }));
    next.clear();
    return offsets.length > 0 ? consumer.commitOffsets(offsets) : Promise.resolve();
  };
  const committing = setInterval(() => void commit().catch(() => undefined), 1_000);
  reportWindows(
    () => handled,
    latencies,
    seconds,
    async () => {
      clearInterval(committing);
      await consumer.disconnect();
    },
  );
}

async function consumeRdkafka(topic: string, seconds: number) {
  const rdkafka = loadRdkafka();
  const consumer = new rdkafka.KafkaConsumer(
    {
      'group.id': `${topic}-rdkafka`,
      'metadata.broker.list': brokers.join(','),
      // librdkafka's auto-commit commits in the background, once a second
      'enable.auto.commit': true,
      'auto.commit.interval.ms': 1_000,
      'session.timeout.ms': 10_000,
      'heartbeat.interval.ms': 1_000,
    },
    { 'auto.offset.reset': 'latest' },
  );
  let handled = 0;
  const latencies: number[] = [];
  consumer.on('data', (message: { value: Buffer }) => {
    latencies.push(Date.now() - (JSON.parse(String(message.value)) as { ts: number }).ts);
    handled++;
  });
  consumer.on('ready', () => {
    consumer.subscribe([topic]);
    consumer.consume();
  });
  consumer.connect();
  reportWindows(
    () => handled,
    latencies,
    seconds,
    // node-rdkafka's disconnect can wait forever while facts are still flowing in: it leaves its group
    // first, and the process exits within 5 s however the disconnect goes (the group is the probe's own)
    () =>
      new Promise((resolve) => {
        consumer.unsubscribe();
        consumer.disconnect(resolve);
        setTimeout(resolve, 5_000).unref();
      }),
  );
}

// ---- the coordinator

interface Child {
  name: string;
  process: ChildProcess;
  windows: ClientWindow[];
  done: Promise<void>;
}

function child(name: string, role: string, ...roleArgs: (string | number)[]): Child {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--role', role, ...roleArgs.map(String)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const windows: ClientWindow[] = [];
  let buffered = '';
  proc.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      // a window, or a line of kafkajs' log (pino, on the same stdout): passed on to stderr
      const parsed = JSON.parse(line) as Partial<ClientWindow>;
      if (typeof parsed.facts === 'number' && typeof parsed.cpuMs === 'number') windows.push(parsed as ClientWindow);
      else process.stderr.write(`[${name}] ${line}\n`);
    }
  });
  const done = new Promise<void>((resolve, reject) =>
    proc.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${name} exited with ${code}`)))),
  );
  return { name, process: proc, windows, done };
}

async function createTopics(names: string[]) {
  const admin = kafkajs('kafka-clients-admin').admin();
  await admin.connect();
  await admin.createTopics({
    topics: names.map((topic) => ({ topic, numPartitions: 6, replicationFactor: 1 })),
    waitForLeaders: true,
  });
  await admin.disconnect();
}

/** The broker's CPU ms over `seconds`. */
async function brokerCpuMs(brokerPid: number, seconds: number): Promise<number> {
  const before = ticksOf(brokerPid) ?? 0;
  await sleep(seconds * 1000);
  return (((ticksOf(brokerPid) ?? 0) - before) * 1000) / CLK_TCK;
}

async function coordinate() {
  const rate = flag('--rate', 200);
  const seconds = flag('--seconds', 90);
  const warm = flag('--warm', 40);
  if (seconds <= warm) throw new Error('--seconds must exceed --warm');
  const run = `kafka-clients-${Date.now()}`;
  const say = (line: string) => console.log(`[kafka-clients ${new Date().toISOString().slice(11, 19)}] ${line}`);
  const [brokerPid] = pidsMatching('kafka.Kafka');
  if (brokerPid === undefined) throw new Error('no Kafka broker process on this host: run `make up` first');
  await createTopics([`${run}-p-kafkajs`, `${run}-p-rdkafka`, `${run}-c`, `${run}-b`]);

  say(`1. producers, ${rate} facts/s each for ${seconds} s, at once`);
  const producers = [
    child('kafkajs', 'produce-kafkajs', `${run}-p-kafkajs`, rate, seconds),
    child('librdkafka', 'produce-rdkafka', `${run}-p-rdkafka`, rate, seconds),
  ];
  await Promise.all(producers.map((p) => p.done));

  say(`2. consumers, each in its own group, ${rate} facts/s for ${seconds} s, at once`);
  const consumers = [
    child('kafkajs', 'consume-kafkajs', `${run}-c`, seconds),
    child('librdkafka', 'consume-rdkafka', `${run}-c`, seconds),
  ];
  await sleep(3_000); // both have joined before the first fact
  const feed = child('feed', 'produce-rdkafka', `${run}-c`, rate, seconds);
  await Promise.all([...consumers, feed].map((c) => c.done));

  say(`3. the broker's CPU per fact consumed: the producer alone, then with one consumer, alternated`);
  // the broker's own JIT and housekeeping drift over minutes: each consumer is measured against the mean
  // of the windows with the producer alone just before and just after it
  const phaseSeconds = Math.max(20, seconds - warm);
  const total = warm + 5 * phaseSeconds + 2 * (warm + 20) + 30;
  const brokerFeed = child('feed', 'produce-rdkafka', `${run}-b`, rate, total);
  await sleep(warm * 1000);
  const alone = [await brokerCpuMs(brokerPid, phaseSeconds)];
  const withConsumer: Record<string, number> = {};
  for (const [name, role] of [
    ['kafkajs', 'consume-kafkajs'],
    ['librdkafka', 'consume-rdkafka'],
  ] as const) {
    const consumer = child(name, role, `${run}-b`, warm + phaseSeconds + 10);
    await sleep(warm * 1000);
    withConsumer[name] = await brokerCpuMs(brokerPid, phaseSeconds);
    await consumer.done;
    await sleep(5_000); // its group left, its last fetch answered
    alone.push(await brokerCpuMs(brokerPid, phaseSeconds));
  }
  // its run is longer than the phase needs: ended here, its exit by the signal expected
  brokerFeed.done.catch(() => undefined);
  brokerFeed.process.kill('SIGTERM');
  const [a0 = 0, a1 = 0, a2 = 0] = alone;
  const fed = rate * phaseSeconds;
  const broker = {
    kafkajs: brokerCpuMsPerFactConsumed(withConsumer.kafkajs ?? 0, a0, a1, fed),
    librdkafka: brokerCpuMsPerFactConsumed(withConsumer.librdkafka ?? 0, a1, a2, fed),
  };
  const warmWindows = Math.ceil((warm * 1000) / WINDOW_MS);

  const figures = {
    run,
    rate,
    seconds,
    warmSeconds: warm,
    valueBytes: factValue(0).length,
    librdkafkaVersion: loadRdkafka().librdkafkaVersion as string,
    producerCpuMsPerFact: Object.fromEntries(producers.map((p) => [p.name, warmCostOf(p.windows, warmWindows)])),
    consumerCpuMsPerFact: Object.fromEntries(consumers.map((c) => [c.name, warmCostOf(c.windows, warmWindows)])),
    brokerCpuMsPerFactConsumed: broker,
    brokerCpuMsPerFactProducedAlone: alone.map((ms) => Math.round((ms / (rate * phaseSeconds)) * 1000) / 1000),
  };
  const row = (label: string, a: number | null | undefined, b: number | null | undefined) =>
    `${label.padEnd(52)} ${String(a ?? 'n/a').padStart(10)} ${String(b ?? 'n/a').padStart(12)}   ${a && b ? `${Math.round((b / a) * 100)}%` : ''}`;
  console.log(
    `\n${'CPU ms per fact (median of 10 s windows after warm-up)'.padEnd(52)} ${'kafkajs'.padStart(10)} ${'librdkafka'.padStart(12)}   share`,
  );
  const { producerCpuMsPerFact: produced, consumerCpuMsPerFact: consumed } = figures;
  const rows: [string, number | null | undefined, number | null | undefined][] = [
    ['producer (one awaited, idempotent send per fact)', produced.kafkajs?.cpuMsPerFact, produced.librdkafka?.cpuMsPerFact],
    ['consumer (facts as they come)', consumed.kafkajs?.cpuMsPerFact, consumed.librdkafka?.cpuMsPerFact],
    ["broker, per fact consumed (net of the producer's)", broker.kafkajs, broker.librdkafka],
    ['consumer latency p50 ms (produce -> handler)', consumed.kafkajs?.latencyP50Ms, consumed.librdkafka?.latencyP50Ms],
    ['consumer latency p99 ms', consumed.kafkajs?.latencyP99Ms, consumed.librdkafka?.latencyP99Ms],
  ];
  for (const [label, a, b] of rows) console.log(row(label, a, b));
  mkdirSync(`${root}bench-results`, { recursive: true });
  const file = `${root}bench-results/kafka-clients-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}Z.json`;
  writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
  console.log(`\nfigures written to ${file.slice(root.length)}`);
}

const roleAt = args.indexOf('--role');
if (roleAt >= 0) {
  const [role, topic, a, b] = args.slice(roleAt + 1);
  const t = String(topic);
  if (role === 'produce-kafkajs') await produceKafkajs(t, Number(a), Number(b));
  else if (role === 'produce-rdkafka') await produceRdkafka(t, Number(a), Number(b));
  else if (role === 'consume-kafkajs') await consumeKafkajs(t, Number(a));
  else if (role === 'consume-rdkafka') await consumeRdkafka(t, Number(a));
  else throw new Error(`unknown role ${role}`);
} else {
  await coordinate();
}
