/**
 * The HubSpot stand-in as its own process (hubspot-standin.child.ts), holding `calls` calls of one
 * owner, each with a recording and a contact, their hs_lastmodifieddate `modifiedStepMs` apart
 * from `firstModifiedMs` on. It listens on 127.0.0.1 only. The bench asks it for tokens and for
 * the counts of the requests it received (by route), over the process's IPC channel.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { repoRoot } from '../../test/support/host-process.js';

/** What the stand-in holds. */
export interface StandinWorld {
  calls: number;
  firstCallId: number;
  firstContactId: number;
  /** The stand-in seed's owner whose calls they all are. */
  ownerEmail: string;
  firstModifiedMs: number;
  modifiedStepMs: number;
  durationMs: number;
  recordingBytes: number;
}

export type StandinRequest = { type: 'tokens' } | { type: 'counts' } | { type: 'stop' };

export interface StandinCounts {
  requests: number;
  /** Requests by "METHOD /path" (recordings as /recordings/{id}). */
  byRoute: Record<string, number>;
  /** Call searches sent without a cursor: each sync's first, and each restart past the result cap. */
  searchesFromTheStart: number;
}

export type StandinReply =
  | { type: 'ready'; baseUrl: string; authorizeUrl: string }
  | { type: 'tokens'; accessToken: string; refreshToken: string }
  | ({ type: 'counts' } & StandinCounts);

export interface StandinProcess {
  baseUrl: string;
  authorizeUrl: string;
  pid: number;
  /** Tokens as if the seed's user had consented (HubSpot's 30-minute access token). */
  issueTokens(): Promise<{ accessToken: string; refreshToken: string }>;
  counts(): Promise<StandinCounts>;
  stop(): Promise<void>;
}

const CHILD = fileURLToPath(new URL('./hubspot-standin.child.ts', import.meta.url));

export async function startHubSpotStandinProcess(world: StandinWorld): Promise<StandinProcess> {
  const child: ChildProcess = fork(CHILD, [], {
    cwd: repoRoot,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_HUBSPOT_WORLD: JSON.stringify(world) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let waiting: { type: StandinReply['type']; resolve: (reply: StandinReply) => void; reject: (error: Error) => void } | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      waiting?.reject(new Error(`the HubSpot stand-in process exited (${signal ?? code}) before answering ${waiting.type}`));
      waiting = undefined;
      resolve();
    }),
  );
  child.on('message', (reply: StandinReply) => {
    if (waiting?.type !== reply.type) return;
    const { resolve } = waiting;
    waiting = undefined;
    resolve(reply);
  });
  const next = <T extends StandinReply['type']>(type: T) =>
    new Promise<Extract<StandinReply, { type: T }>>((resolve, reject) => (waiting = { type, resolve: resolve as (reply: StandinReply) => void, reject }));
  /** One question at a time: the bench never asks two at once. */
  const ask = <T extends StandinReply['type']>(type: T & StandinRequest['type']) => {
    const answer = next(type);
    child.send({ type });
    return answer;
  };

  const ready = await next('ready');
  return {
    baseUrl: ready.baseUrl,
    authorizeUrl: ready.authorizeUrl,
    pid: child.pid!,
    issueTokens: async () => {
      const { accessToken, refreshToken } = await ask('tokens');
      return { accessToken, refreshToken };
    },
    counts: async () => {
      const { requests, byRoute, searchesFromTheStart } = await ask('counts');
      return { requests, byRoute, searchesFromTheStart };
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ type: 'stop' });
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
