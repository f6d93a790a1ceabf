/**
 * After `vite build`: writes a gzip and a brotli copy next to every script, stylesheet, HTML and
 * SVG file in dist/, so the gateway sends them compressed (@fastify/static `preCompressed`)
 * without compressing on each request.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = path.join(import.meta.dirname, '..', 'dist');
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}

let count = 0;
for await (const file of files(dist)) {
  const content = await readFile(file);
  await writeFile(`${file}.gz`, gzipSync(content, { level: 9 }));
  await writeFile(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: (await stat(file)).size } }));
  count += 1;
}
console.log(`compressed ${count} files in ${path.relative(process.cwd(), dist) || dist}`);
