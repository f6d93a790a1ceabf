/**
 * `npm run check -w @parlance/proto` (CI, `make proto-check`): regenerates the TypeScript from the
 * .proto files into a temporary directory and compares it with the committed gen/ using
 * `diff -r`. Exits 1 with "generated code is stale: run make proto" when they differ.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const protoDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(join(tmpdir(), 'parlance-proto-'));

function run(command: string, args: string[]): number {
  const result = spawnSync(command, args, { cwd: protoDir, stdio: 'inherit' });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

let exitCode = 0;
try {
  if (run('buf', ['generate', '--output', scratch]) !== 0) {
    console.error('buf generate failed');
    exitCode = 1;
  } else if (run('diff', ['-r', join(scratch, 'gen'), 'gen']) !== 0) {
    console.error('generated code is stale: run make proto');
    exitCode = 1;
  } else {
    console.log('proto/gen is up to date');
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
process.exitCode = exitCode;
