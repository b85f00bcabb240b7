/**
 * A broker or a Postgres cluster of a test's own, started, stopped and started again through the same
 * scripts as `make up` (infra/kafka/kafka.sh, infra/postgres/postgres.sh) on free ports and a data
 * directory of its own — so a test may restart it under load without touching the shared one.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, repoRoot } from '@hireloop/platform/testing';

const run = promisify(execFile);

/** Runs a project script with these variables; its output on failure. Bounded: a script that hangs is an error. */
async function script(path: string, args: string[], env: Record<string, string>, timeoutMs = 120_000): Promise<string> {
  try {
    const { stdout } = await run(`${repoRoot}/${path}`, args, { env: { ...process.env, ...env }, timeout: timeoutMs });
    return stdout;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${path} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

export interface PrivateServer {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** stops it and removes its data */
  destroy(): Promise<void>;
}

/** A single-node KRaft broker of its own: `brokers` to hand to the services. */
export async function privateKafka(): Promise<PrivateServer & { brokers: string[] }> {
  const port = await freePort();
  const env = {
    KAFKA_PORT: String(port),
    KAFKA_CONTROLLER_PORT: String(await freePort()),
    KAFKA_DATA_DIR: join(tmpdir(), `hireloop-chaos-kafka-${randomBytes(4).toString('hex')}`),
  };
  const kafka = {
    brokers: [`127.0.0.1:${port}`],
    start: async () => {
      const out = await script('infra/kafka/kafka.sh', ['start'], env);
      // a broker someone else runs on the port is not ours to restart
      if (!/^started kafka$/m.test(out)) throw new Error(`the private broker did not start: ${out}`);
    },
    stop: async () => {
      await script('infra/kafka/kafka.sh', ['stop'], env);
    },
    destroy: async () => {
      await kafka.stop().catch(() => undefined);
      await rm(env.KAFKA_DATA_DIR, { recursive: true, force: true });
    },
  };
  return kafka;
}

/** A Postgres cluster of its own (initdb on first start): `databaseUrl` names a database on it. */
export async function privatePostgres(database = 'hireloop_chaos'): Promise<PrivateServer & { databaseUrl: string }> {
  const port = await freePort();
  const databaseUrl = `postgres://postgres@127.0.0.1:${port}/${database}`;
  // not created here: the script makes it and hands it to the postgres user (a directory of root's, 0700, would not do)
  const env = { DATABASE_URL: databaseUrl, PG_DATA_DIR: join(tmpdir(), `hireloop-chaos-pg-${randomBytes(4).toString('hex')}`) };
  const pg = {
    databaseUrl,
    start: async () => {
      const out = await script('infra/postgres/postgres.sh', ['ensure'], env);
      if (!/^started postgres$/m.test(out)) throw new Error(`the private Postgres did not start: ${out}`);
    },
    stop: async () => {
      await script('infra/postgres/postgres.sh', ['stop'], env);
    },
    destroy: async () => {
      await pg.stop().catch(() => undefined);
      await rm(env.PG_DATA_DIR, { recursive: true, force: true });
    },
  };
  return pg;
}
