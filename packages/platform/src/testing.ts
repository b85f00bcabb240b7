import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** A port nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function waitUntil<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

export interface ServiceProcess {
  name: string;
  port: number;
  child: ChildProcess;
  output: () => string;
  url: (path: string) => string;
  /** SIGTERM, then the exit code (or the signal that ended it) */
  stop: (signal?: NodeJS.Signals) => Promise<number | NodeJS.Signals | null>;
}

/** Starts `services/<name>/src/main.ts` as its own process, the way `make up` does. */
export async function startServiceProcess(name: string, env: Record<string, string>): Promise<ServiceProcess> {
  const portVar = `${name.toUpperCase().replaceAll('-', '_')}_PORT`;
  // a service restarted where it was (its clients keep their URL) is given its port in `env`
  const port = Number(env[portVar] ?? 0) || (await freePort());
  const child = spawn(`${repoRoot}/scripts/service.sh`, [name], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'info', ...env, [portVar]: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return {
    name,
    port,
    child,
    output: () => output,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode ?? child.signalCode;
      child.kill(signal);
      const [code, sig] = await exited;
      return code ?? sig;
    },
  };
}
