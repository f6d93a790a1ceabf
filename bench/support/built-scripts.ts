/**
 * The scripts a page loaded, as files of the web app's build: each script's file in web/dist and
 * the size of its gzip copy (written by web/scripts/compress-dist.ts: the bytes the gateway sends).
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../../test/support/host-process.js';

const dist = path.join(repoRoot, 'web', 'dist');

export interface BuiltScript {
  file: string;
  gzipBytes: number;
}

/** Throws for a script from another origin than `base`: the pages load nothing from elsewhere. */
export async function builtScripts(urls: Iterable<string>, base: string, page: string): Promise<BuiltScript[]> {
  return Promise.all(
    [...urls].map(async (url) => {
      const { origin, pathname } = new URL(url);
      if (origin !== base) throw new Error(`${page} loaded a script from another origin: ${url}`);
      const file = path.join(dist, decodeURIComponent(pathname));
      return { file, gzipBytes: (await stat(`${file}.gz`)).size };
    }),
  );
}

/** Bytes in KB, to one decimal. */
export const kilobytes = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
