/**
 * Recordings that wait for the speech server. While it cannot be reached (installing, starting,
 * restarting, down) a recording is handed back to the queue and tried again a little later: after
 * 2 s at first, then after a quarter of the time it has waited so far, at most 30 s apart. Only a
 * recording that has waited `maxWaitMs` fails, with what was last seen as the reason.
 *
 * The log says it once an outage, not once a piece or a retry: a warning when the first recording
 * has to wait, and a line when the speech server first answers again, with how long it was away.
 * The waits are this process's: a recording taken over by another process starts its count afresh.
 */
import type { Logger } from '@parlance/platform/logger';

export interface SpeechWaitSettings {
  /** How long a recording may wait in all before it fails. */
  maxWaitMs: number;
  minRetryMs?: number;
  maxRetryMs?: number;
  now?: () => number;
}

export type WaitDecision = { retryInMs: number; waitedMs: number } | { failWith: string };

export interface SpeechWait {
  /** The recording `key` could not reach the speech server, for `reason`: when to try it again, or that it has waited long enough. */
  couldNotReach(key: string, reason: string): WaitDecision;
  /** The speech server answered a request: the outage, if there was one, is over. */
  answered(): void;
  /** The recording is done with (transcribed, failed or gone). */
  finished(key: string): void;
  /** Whether the recording is waiting (it was handed back at least once). */
  isWaiting(key: string): boolean;
}

export function createSpeechWait(logger: Logger, settings: SpeechWaitSettings): SpeechWait {
  const now = settings.now ?? Date.now;
  const minRetryMs = settings.minRetryMs ?? 2_000;
  const maxRetryMs = settings.maxRetryMs ?? 30_000;
  /** When each waiting recording was first handed back. */
  const waitingSince = new Map<string, number>();
  let outage: { since: number; handedBack: number } | undefined;

  return {
    couldNotReach(key, reason) {
      const at = now();
      // A recording deleted while it waited is never finished here: forget it after a while.
      for (const [other, since] of waitingSince) if (at - since > 2 * settings.maxWaitMs) waitingSince.delete(other);
      const since = waitingSince.get(key) ?? at;
      const waitedMs = at - since;
      if (!outage) {
        outage = { since: at, handedBack: 0 };
        logger.warn({ reason, maxWaitMs: settings.maxWaitMs }, 'recordings wait for the speech server');
      }
      if (waitedMs >= settings.maxWaitMs) {
        waitingSince.delete(key);
        return { failWith: `the recording waited ${describeWait(settings.maxWaitMs)} for the speech server in vain (${reason})` };
      }
      waitingSince.set(key, since);
      outage.handedBack += 1;
      const retryInMs = Math.min(maxRetryMs, Math.max(minRetryMs, Math.round(waitedMs / 4)), settings.maxWaitMs - waitedMs);
      return { retryInMs, waitedMs };
    },
    answered() {
      if (!outage) return;
      logger.info({ outageMs: now() - outage.since, handedBack: outage.handedBack }, 'the speech server answers again; waiting recordings continue');
      outage = undefined;
    },
    finished(key) {
      waitingSince.delete(key);
    },
    isWaiting: (key) => waitingSince.has(key),
  };
}

/** "30 minutes", "90 s", "1 hour". */
function describeWait(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes % 60 === 0) return minutes === 60 ? '1 hour' : `${minutes / 60} hours`;
  return `${minutes} minutes`;
}
