/**
 * Runs a program (no shell) to completion and hands back its output. The process never brings the
 * service down: a program that cannot be started rejects with the spawn error (ENOENT when it is
 * not installed), a closed stdin is ignored, and an aborted signal kills the program and rejects
 * with the signal's reason.
 */
import { spawn } from 'node:child_process';

export interface ProcessResult {
  /** The exit code, or null when a signal ended the program. */
  code: number | null;
  stdout: Buffer;
  /** The end of what the program wrote to stderr (at most `stderrLimit` characters). */
  stderr: string;
}

export interface RunProcessOptions {
  /** Written to the program's stdin, which is then closed; without it stdin is /dev/null. */
  input?: Uint8Array;
  signal?: AbortSignal;
  /** How much of the end of stderr to keep. Default 64 KiB. */
  stderrLimit?: number;
}

export function runProcess(command: string, args: readonly string[], options: RunProcessOptions = {}): Promise<ProcessResult> {
  const { input, signal, stderrLimit = 64 * 1024 } = options;
  return new Promise<ProcessResult>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const child = spawn(command, args, { stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let stderr = '';
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const onAbort = () => {
      child.kill('SIGKILL');
      settle(() => reject(signal?.reason));
    };
    signal?.addEventListener('abort', onAbort, { once: true });

    child.on('error', (error) => settle(() => reject(error)));
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.length > stderrLimit * 2) stderr = stderr.slice(-stderrLimit);
    });
    child.on('close', (code) => settle(() => resolve({ code, stdout: Buffer.concat(stdout), stderr: stderr.slice(-stderrLimit) })));
    if (input && child.stdin) {
      // The program may exit before reading everything (a bad option, a crash): its exit code says why.
      child.stdin.on('error', () => undefined);
      child.stdin.end(input);
    }
  });
}

/** Spawn's error for a program that is not installed. */
export function isNotInstalled(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}
