/**
 * What the bench reads of processes on this host, from /proc (read-only: nothing is signalled). Shared
 * by the bench itself and the bare-library floor, which counts its own Postgres backends.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { cpuTicksOfStat, rssMbOfStatus } from './decide';

const readProc = (pid: number, file: string): string | null => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return null;
  }
};

/** utime + stime of a process in clock ticks, null when it is gone (or not on this host). */
export const ticksOf = (pid: number): number | null => {
  const stat = readProc(pid, 'stat');
  return stat === null ? null : cpuTicksOfStat(stat);
};

/** VmRSS of a process in MB, null when it is gone. */
export const rssOf = (pid: number): number | null => {
  const status = readProc(pid, 'status');
  return status === null ? null : rssMbOfStatus(status);
};

/** pids whose command line contains every needle. */
export function pidsMatching(...needles: string[]): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmd = readProc(Number(entry), 'cmdline')?.replaceAll('\0', ' ');
    if (cmd && needles.every((n) => cmd.includes(n))) out.push(Number(entry));
  }
  return out;
}

/** Clock ticks per second (`getconf CLK_TCK`, 100 when it cannot be asked). */
export const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** The text of /proc/stat (the host's CPU times), '' when it cannot be read. */
export const hostStat = (): string => {
  try {
    return readFileSync('/proc/stat', 'utf8');
  } catch {
    return '';
  }
};

/**
 * How fast this host's cores are now: the CPU ms one fixed piece of work takes (SHA-256 over 8 MiB, in
 * 4 KiB pieces), the best of five. A host shared with other guests runs the same work slower at some
 * times than at others, so the bench reads it before each phase it compares: a bare floor and a platform
 * measured at different speeds give a skewed ratio. Native work that allocates nothing: a JavaScript
 * workload (JSON written and parsed) read 25 ms, then 15 ms, in one process on a steady host, as V8 grew
 * its young generation — it would time the heap, not the cores.
 */
export function coreSpeedMs(): number {
  const piece = Buffer.alloc(4096, 7);
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round++) {
    const before = process.cpuUsage();
    const hash = createHash('sha256');
    for (let i = 0; i < 2048; i++) hash.update(piece);
    hash.digest();
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return Math.round(best * 100) / 100;
}
