/** What every benchmark reports with: medians, percentiles, calls per second under load, and the machine. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

/** The middle value (the upper middle for an even count). */
export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The value `p` (0 to 1) of the way up the sorted values. */
export const percentile = (values: number[], p: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

/**
 * Calls per second over `seconds` with `concurrency` calls in flight: each worker calls again as
 * soon as its call ends. A call throws to stop the run (a wrong answer is not a result).
 */
export async function callsPerSecond(call: () => Promise<void>, options: { seconds: number; concurrency: number }): Promise<number> {
  const until = Date.now() + options.seconds * 1_000;
  let calls = 0;
  const worker = async () => {
    while (Date.now() < until) {
      await call();
      calls += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return calls / ((performance.now() - started) / 1_000);
}

/** Latencies in ms of `requests` calls with `clients` in flight; each client calls again as soon as its call ends. */
export async function latencies(call: (i: number) => Promise<unknown>, requests: number, clients: number): Promise<number[]> {
  const measured: number[] = [];
  let next = 0;
  const client = async () => {
    while (next < requests) {
      const i = next++;
      const started = performance.now();
      await call(i);
      measured.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  return measured;
}

/** The machine a result was measured on: its cores, its 1-minute load average, the Node version and its options. */
export const machine = () => ({
  cores: availableParallelism(),
  load_1m: +loadavg()[0]!.toFixed(2),
  node: process.version,
  node_options: [...process.execArgv.filter((option) => option.startsWith('--max')), process.env.NODE_OPTIONS ?? ''].join(' ').trim(),
});

/**
 * The CPU milliseconds each process named `name` on this machine has used so far, by pid (Linux's
 * /proc; null elsewhere): taken before and after a run, with `cpuMsBetween`, the CPU a local
 * PostgreSQL spent on it.
 */
export function processesCpuMs(name: string): Map<string, number> | null {
  if (!existsSync('/proc/self/stat')) return null;
  const used = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // "pid (comm) state …": fields after the command's closing parenthesis; utime and stime are the 14th and 15th.
      const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (command !== name) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // Linux counts in USER_HZ, 100 a second on every architecture it exports to user space.
      used.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // The process ended while it was being read.
    }
  }
  return used;
}

/**
 * The CPU the processes spent between two readings: each running at the second its use since the
 * first (all of it if it started since). A process that ended in between is left out rather than
 * subtracted: a pool closing an idle connection during a run once made the total negative.
 */
export function cpuMsBetween(before: Map<string, number> | null, after: Map<string, number> | null): number | null {
  if (before === null || after === null) return null;
  let spent = 0;
  for (const [pid, used] of after) spent += used - (before.get(pid) ?? 0);
  return spent;
}
