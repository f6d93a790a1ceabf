import { describe, expect, it } from 'vitest';
import { isNotInstalled, runProcess } from './child-process.js';

describe('runProcess', () => {
  it('gives the exit code, stdout and stderr, and feeds stdin', async () => {
    const result = await runProcess('sh', ['-c', 'cat; echo oops >&2; exit 3'], { input: Buffer.from('hello') });
    expect(result).toEqual({ code: 3, stdout: Buffer.from('hello'), stderr: 'oops\n' });
  });

  it('keeps only the end of a long stderr', async () => {
    const result = await runProcess('sh', ['-c', 'i=0; while [ $i -lt 2000 ]; do echo "line $i" >&2; i=$((i+1)); done'], { stderrLimit: 100 });
    expect(result.stderr.length).toBeLessThanOrEqual(100);
    expect(result.stderr.endsWith('line 1999\n')).toBe(true);
  });

  it('rejects with the spawn error when the program is not installed', async () => {
    const error = await runProcess('/nonexistent/program', []).catch((rejection: unknown) => rejection);
    expect(isNotInstalled(error)).toBe(true);
  });

  it('survives a program that exits without reading its input', async () => {
    const result = await runProcess('true', [], { input: Buffer.alloc(4 * 1024 * 1024) });
    expect(result.code).toBe(0);
  });

  it('kills the program when aborted and rejects with the reason', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const running = runProcess('sleep', ['30'], { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 50);
    await expect(running).rejects.toThrow('stop');
    expect(performance.now() - started).toBeLessThan(5_000);
    const aborted = AbortSignal.abort(new Error('already'));
    await expect(runProcess('sleep', ['30'], { signal: aborted })).rejects.toThrow('already');
  });
});
