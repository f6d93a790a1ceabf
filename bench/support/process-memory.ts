/**
 * Memory and CPU of another process, read from /proc (Linux), for benches that run a service as
 * its own process: resident memory now (VmRSS), the kernel's high-water mark of it since the
 * process started (VmHWM), and CPU time used so far.
 */
import { readFile } from 'node:fs/promises';

export interface MemoryReading {
  /** performance.now() of the reading. */
  atMs: number;
  rssKb: number;
  hwmKb: number;
}

/** VmRSS and VmHWM of a process; undefined once it has gone. */
export async function memoryOf(pid: number): Promise<MemoryReading | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const rss = /VmRSS:\s+(\d+)/.exec(status);
  const hwm = /VmHWM:\s+(\d+)/.exec(status);
  if (!rss || !hwm) return undefined;
  return { atMs: performance.now(), rssKb: Number(rss[1]), hwmKb: Number(hwm[1]) };
}

/** CPU time (user + system, ms) a process has used since it started; its threads included. */
export async function cpuMsOf(pid: number): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat ? cpuMsOfStat(stat) : undefined;
}

/** CPU time (user + system, ms) in the text of a /proc/<pid>/stat or /proc/thread-self/stat file. */
export function cpuMsOfStat(stat: string): number {
  // The command name (field 2) may hold spaces; utime and stime are fields 14 and 15, in ticks of 10 ms.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export interface MemorySampler {
  /** Every reading so far, oldest first. */
  readonly readings: readonly MemoryReading[];
  /** Readings taken after `fromMs` (performance.now()), up to `toMs`. */
  between(fromMs: number, toMs?: number): MemoryReading[];
  stop(): Promise<void>;
}

/** Reads a process's memory every `everyMs` until stopped or the process has gone. */
export function sampleMemory(pid: number, everyMs = 100): MemorySampler {
  const readings: MemoryReading[] = [];
  let stopped = false;
  let wake: () => void = () => undefined;
  const loop = (async () => {
    while (!stopped) {
      const reading = await memoryOf(pid);
      if (!reading) return;
      readings.push(reading);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, everyMs);
      });
    }
  })();
  return {
    readings,
    between: (fromMs, toMs = Infinity) => readings.filter((reading) => reading.atMs >= fromMs && reading.atMs <= toMs),
    async stop() {
      stopped = true;
      wake();
      await loop;
    },
  };
}
