import { mkdtemp, readdir, readFile, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskMediaStore, MEDIA_READ_CHUNK_BYTES, type MediaStore } from './media-store.js';

let root: string;
let store: MediaStore;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'parlance-media-test-'));
  store = diskMediaStore(root);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function readAll(key: string, range?: { start: number; end: number }): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of store.read(key, range)) chunks.push(chunk);
  return chunks;
}

describe('diskMediaStore', () => {
  it('keeps nothing under the key until commit, then the whole file with its length and SHA-256', async () => {
    const writer = await store.begin();
    await writer.write(Buffer.from('hello '));
    await writer.write(Buffer.from('world'));
    expect(writer.bytes).toBe(11);
    await expect(readAll('company-a/activity-1')).rejects.toThrow('The media of this activity is no longer stored.');

    const stored = await writer.commit('company-a/activity-1');
    expect(stored).toEqual({ bytes: 11, sha256: 'b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9' });
    expect(Buffer.concat(await readAll('company-a/activity-1')).toString()).toBe('hello world');
    await writer.abort();
    expect(await readFile(path.join(root, 'company-a', 'activity-1'), 'utf8')).toBe('hello world');
  });

  it('reads a byte range, its end excluded, for a player that seeks', async () => {
    const writer = await store.begin();
    await writer.write(Buffer.from('0123456789'));
    await writer.commit('company-a/ranged');
    expect(Buffer.concat(await readAll('company-a/ranged', { start: 2, end: 5 })).toString()).toBe('234');
    expect(Buffer.concat(await readAll('company-a/ranged', { start: 7, end: 10 })).toString()).toBe('789');
    expect(await readAll('company-a/ranged', { start: 4, end: 4 })).toEqual([]);
  });

  it('reads a large file back in chunks small enough for one gRPC message', async () => {
    const writer = await store.begin();
    const data = Buffer.alloc(3 * MEDIA_READ_CHUNK_BYTES + 17, 7);
    await writer.write(data);
    await writer.commit('company-a/large');
    const chunks = await readAll('company-a/large');
    expect(chunks.every((chunk) => chunk.length <= MEDIA_READ_CHUNK_BYTES)).toBe(true);
    expect(Buffer.concat(chunks).equals(data)).toBe(true);
  });

  it('leaves no trace of an aborted write', async () => {
    const writer = await store.begin();
    await writer.write(Buffer.from('half an upload'));
    await writer.abort();
    expect(await readdir(path.join(root, '.incoming'))).toEqual([]);
  });

  it('removes a file, and removing it again is harmless', async () => {
    const writer = await store.begin();
    await writer.write(Buffer.from('x'));
    await writer.commit('company-b/gone');
    await store.remove('company-b/gone');
    await store.remove('company-b/gone');
    await expect(readAll('company-b/gone')).rejects.toMatchObject({ kind: 'not-found' });
  });

  it('refuses a key that could leave its directory', async () => {
    const writer = await store.begin();
    await expect(writer.commit('../escape')).rejects.toThrow('Not a media key');
    await writer.abort();
    await expect(store.remove('a/../../b')).rejects.toThrow('Not a media key');
  });
});

describe('what the orphan sweep reads', () => {
  it('lists stored keys written before a time, and drops writes abandoned before it', async () => {
    const sweepRoot = await mkdtemp(path.join(tmpdir(), 'parlance-media-sweep-'));
    const sweepStore = diskMediaStore(sweepRoot);
    try {
      for (const key of ['company-c/old', 'company-c/new']) {
        const writer = await sweepStore.begin();
        await writer.write(Buffer.from(key));
        await writer.commit(key);
      }
      const hourAgo = new Date(Date.now() - 3_600_000);
      await utimes(path.join(sweepRoot, 'company-c', 'old'), hourAgo, hourAgo);
      const abandoned = await sweepStore.begin();
      await abandoned.write(Buffer.from('never committed'));
      const [temporary] = await readdir(path.join(sweepRoot, '.incoming'));
      await utimes(path.join(sweepRoot, '.incoming', temporary!), hourAgo, hourAgo);

      const cutoff = new Date(Date.now() - 60_000);
      const listed: string[] = [];
      for await (const key of sweepStore.storedBefore(cutoff)) listed.push(key);
      expect(listed).toEqual(['company-c/old']);
      expect(await sweepStore.dropAbandonedWrites(cutoff)).toBe(1);
      expect(await readdir(path.join(sweepRoot, '.incoming'))).toEqual([]);
      await abandoned.abort();
    } finally {
      await rm(sweepRoot, { recursive: true, force: true });
    }
  });

  it('lists nothing in a store nothing was written to', async () => {
    const empty = diskMediaStore(path.join(root, 'never-created'));
    const listed: string[] = [];
    for await (const key of empty.storedBefore(new Date())) listed.push(key);
    expect(listed).toEqual([]);
    expect(await empty.dropAbandonedWrites(new Date())).toBe(0);
  });
});
