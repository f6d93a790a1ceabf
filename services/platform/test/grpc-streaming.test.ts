/**
 * Streaming gRPC methods (grpc/streaming.ts) over a real server and channel on loopback: the
 * company travels as it does for unary calls, messages arrive in order, a DomainError reaches the
 * caller with its kind and sentence, anything else is a generic INTERNAL (and logged), a refused
 * upload stops the client sending, and a reader that stops early ends the server's generator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestServiceClient, IngestServiceService, type UploadActivityRequest } from '@parlance/proto/parlance/ingest/v1/ingest';
import { invalidArgument, notFound } from '../src/errors.js';
import { createClient } from '../src/grpc/grpc-client.js';
import { createGrpcServer } from '../src/grpc/grpc-server.js';
import { requestContext } from '../src/grpc/request-context.js';
import { GrpcCallError } from '../src/grpc/status-mapping.js';
import { callClientStreaming, callServerStreaming, clientStreamingHandler, serverStreamingHandler } from '../src/grpc/streaming.js';
import { createLogger } from '../src/logger.js';

const logLines: string[] = [];
const logger = createLogger({ service: 'grpc-streaming-test', level: 'info', destination: { write: (line: string) => void logLines.push(line) } });
const server = createGrpcServer({ port: 0, logger });
let client: ReturnType<typeof createClient<typeof IngestServiceClient>>;
let readerFinished = false;

const COMPANY = '6f1c1a8e-2f55-4a53-9c3b-4d1d2c3b4a5f';

beforeAll(async () => {
  server.addService(IngestServiceService, {
    uploadActivity: clientStreamingHandler(logger, async (parts) => {
      const received: string[] = [];
      for await (const { part } of parts) {
        if (part?.$case === 'header' && part.value.fileName === 'refuse.wav') throw invalidArgument('The following audio files are too large (max 25MB): refuse.wav');
        if (part?.$case === 'header' && part.value.fileName === 'crash.wav') throw new Error('disk on fire at /var/lib/secret');
        if (part?.$case === 'chunk') received.push(part.value.toString());
      }
      return { jobId: received.join(''), activityId: requestContext().companyId ?? '', alreadyReceived: false };
    }),
    readMedia: serverStreamingHandler(logger, async function* ({ activityId }) {
      if (activityId === 'missing') throw notFound('Activity not found.');
      if (activityId === 'crash') throw new Error('EIO reading /srv/media');
      try {
        yield { chunk: Buffer.from(requestContext().companyId ?? ''), info: undefined };
        for (let i = 0; i < 200; i++) yield { chunk: Buffer.from(String(i)), info: undefined };
      } finally {
        if (activityId === 'endless') readerFinished = true;
      }
    }),
    getJob: async () => ({ job: undefined }),
    deleteActivity: async () => ({}),
  });
  const port = await server.start();
  client = createClient(IngestServiceClient, `127.0.0.1:${port}`);
});

afterAll(async () => {
  client.close();
  await server.stop(1_000);
});

function* upload(fileName: string, chunks: string[], counter?: { pulled: number }): Iterable<UploadActivityRequest> {
  yield { part: { $case: 'header', value: { kind: 1, mediaKind: 1, fileName, teamId: 't', representativeEmail: 'r', representativeName: '', occurredAt: undefined, title: '', notes: '', contact: undefined, link: '', source: '', externalId: '' } } };
  for (const chunk of chunks) {
    if (counter) counter.pulled += 1;
    yield { part: { $case: 'chunk', value: Buffer.from(chunk) } };
  }
}

describe('client streaming', () => {
  it('delivers every part in order with the caller’s company, and returns the reply', async () => {
    const reply = await callClientStreaming(client.raw, IngestServiceService.uploadActivity, upload('ok.wav', ['a', 'b', 'c']), { companyId: COMPANY });
    expect(reply).toEqual({ jobId: 'abc', activityId: COMPANY, alreadyReceived: false });
  });

  it('reaches the caller with the sentence of a refusal, and stops sending the rest', async () => {
    const counter = { pulled: 0 };
    const big = Array.from({ length: 2_000 }, () => 'x'.repeat(64 * 1024));
    const call = callClientStreaming(client.raw, IngestServiceService.uploadActivity, upload('refuse.wav', big, counter), { companyId: COMPANY });
    await expect(call).rejects.toMatchObject({ kind: 'invalid-argument', message: 'The following audio files are too large (max 25MB): refuse.wav' });
    expect(counter.pulled).toBeLessThan(2_000);
  });

  it('answers an unexpected failure with a generic message, logging the error server-side only', async () => {
    const error = await callClientStreaming(client.raw, IngestServiceService.uploadActivity, upload('crash.wav', ['a']), { companyId: COMPANY }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GrpcCallError);
    expect((error as GrpcCallError).kind).toBe('internal');
    expect((error as Error).message).not.toContain('/var/lib/secret');
    expect(logLines.join('\n')).toContain('disk on fire');
  });
});

describe('server streaming', () => {
  it('yields every message in order, with the caller’s company in the handler’s context', async () => {
    const chunks: string[] = [];
    for await (const { chunk } of callServerStreaming(client.raw, IngestServiceService.readMedia, { activityId: 'a', offset: 0, length: 0 }, { companyId: COMPANY })) chunks.push(chunk.toString());
    expect(chunks[0]).toBe(COMPANY);
    expect(chunks.slice(1)).toEqual(Array.from({ length: 200 }, (_, i) => String(i)));
  });

  it('throws a DomainError with the server’s sentence', async () => {
    const read = async () => {
      for await (const message of callServerStreaming(client.raw, IngestServiceService.readMedia, { activityId: 'missing', offset: 0, length: 0 }, { companyId: COMPANY })) void message;
    };
    await expect(read()).rejects.toMatchObject({ kind: 'not-found', message: 'Activity not found.' });
  });

  it('hides an unexpected failure behind INTERNAL', async () => {
    const read = async () => {
      for await (const message of callServerStreaming(client.raw, IngestServiceService.readMedia, { activityId: 'crash', offset: 0, length: 0 }, { companyId: COMPANY })) void message;
    };
    const error = await read().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'internal' });
    expect((error as Error).message).not.toContain('/srv/media');
  });

  it('ends the server’s generator when the reader stops early', async () => {
    for await (const message of callServerStreaming(client.raw, IngestServiceService.readMedia, { activityId: 'endless', offset: 0, length: 0 }, { companyId: COMPANY })) {
      void message;
      break;
    }
    await expect.poll(() => readerFinished, { timeout: 5_000 }).toBe(true);
  });
});
