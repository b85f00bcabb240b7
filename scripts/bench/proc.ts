/**
 * What the bench reads of processes on this host, from /proc (read-only: nothing is signalled). Shared
 * by the bench itself and the bare-library floor, which counts its own Postgres backends.
 */
import { execFileSync } from 'node:child_process';
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
