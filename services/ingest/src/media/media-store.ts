/**
 * Where uploaded recordings and transcripts are kept: files under one directory (the standalone
 * data directory, or a volume shared by the ingest replicas). A file is written under a temporary
 * name, flushed to disk and only then renamed into place, so a stored key always names a whole
 * file, and an upload is acknowledged only after its bytes are on disk.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { notFound } from '@parlance/platform/errors';

/** Chunks handed to a reader: small enough for one gRPC message. */
export const MEDIA_READ_CHUNK_BYTES = 64 * 1024;

const KEY = /^[a-z0-9-]+(\/[a-z0-9-]+)*$/;

export interface MediaWriter {
  /** Bytes written so far. */
  readonly bytes: number;
  write(chunk: Uint8Array): Promise<void>;
  /** Flushes the file and puts it under `key`; returns its length and SHA-256. */
  commit(key: string): Promise<{ bytes: number; sha256: string }>;
  /** Drops what was written; safe to call after a failed or finished commit. */
  abort(): Promise<void>;
}

export interface MediaStore {
  begin(): Promise<MediaWriter>;
  /** The stored bytes in order, or those from `start` up to (not including) `end`; NOT_FOUND when nothing is stored under the key. */
  read(key: string, range?: { start: number; end: number }): AsyncIterable<Buffer>;
  /** Removes the file; nothing happens when it is already gone. */
  remove(key: string): Promise<void>;
  /** Keys of stored files last written before `before`, for the orphan sweep. */
  storedBefore(before: Date): AsyncIterable<string>;
  /** Drops writes begun before `before` and never committed (their process died); returns how many. */
  dropAbandonedWrites(before: Date): Promise<number>;
}

export function diskMediaStore(root: string): MediaStore {
  const incoming = join(root, '.incoming');
  const pathOf = (key: string) => {
    if (!KEY.test(key)) throw new Error(`Not a media key: ${JSON.stringify(key)}`);
    return join(root, key);
  };

  return {
    async begin() {
      await mkdir(incoming, { recursive: true });
      const temporary = join(incoming, randomUUID());
      const file: FileHandle = await open(temporary, 'wx');
      const hash = createHash('sha256');
      let bytes = 0;
      let closed = false;
      const close = async () => {
        if (closed) return;
        closed = true;
        await file.close();
      };
      return {
        get bytes() {
          return bytes;
        },
        async write(chunk) {
          await file.write(chunk);
          hash.update(chunk);
          bytes += chunk.length;
        },
        async commit(key) {
          const target = pathOf(key);
          await file.sync();
          await close();
          await mkdir(dirname(target), { recursive: true });
          await rename(temporary, target);
          await syncDirectory(dirname(target));
          return { bytes, sha256: hash.digest('hex') };
        },
        async abort() {
          await close().catch(() => undefined);
          await rm(temporary, { force: true });
        },
      };
    },

    async *read(key, range) {
      if (range && range.end <= range.start) return;
      // createReadStream's `end` is inclusive.
      const stream = createReadStream(pathOf(key), { highWaterMark: MEDIA_READ_CHUNK_BYTES, ...(range && { start: range.start, end: range.end - 1 }) });
      try {
        for await (const chunk of stream) yield chunk as Buffer;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound('The media of this activity is no longer stored.');
        throw error;
      }
    },

    async remove(key) {
      await rm(pathOf(key), { force: true });
    },

    async *storedBefore(before) {
      for (const company of await entries(root)) {
        if (!KEY.test(company)) continue;
        for (const activity of await entries(join(root, company))) {
          const key = `${company}/${activity}`;
          if (!KEY.test(key)) continue;
          const info = await stat(join(root, key)).catch(() => undefined);
          if (info?.isFile() && info.mtime < before) yield key;
        }
      }
    },

    async dropAbandonedWrites(before) {
      let dropped = 0;
      for (const name of await entries(incoming)) {
        const path = join(incoming, name);
        const info = await stat(path).catch(() => undefined);
        if (info && info.mtime < before) {
          await rm(path, { force: true });
          dropped += 1;
        }
      }
      return dropped;
    },
  };
}

/** The names in a directory; none when it does not exist (yet). */
async function entries(directory: string): Promise<string[]> {
  return readdir(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return [];
    throw error;
  });
}

/** A rename is durable only once its directory is flushed too. */
async function syncDirectory(path: string): Promise<void> {
  const directory = await open(path, 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}
