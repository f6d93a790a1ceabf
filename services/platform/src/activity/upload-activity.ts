/**
 * The client side of ingest's UploadActivity stream, for whoever sends it a file (the gateway's
 * upload routes, the demo data): the header first, then the bytes in chunks well under gRPC's
 * 4 MB message limit.
 */
import type { CallSettings } from '../grpc/grpc-client.js';
import { callClientStreaming } from '../grpc/streaming.js';
import { IngestServiceService, type IngestServiceClient, type UploadActivityResponse, type UploadHeader } from '@parlance/proto/parlance/ingest/v1/ingest';

/** The largest audio file Parlance takes (spec part 2 §5: 25 MB), however it arrives: uploaded, or a recording an integration fetched. */
export const AUDIO_MAX_BYTES = 26_214_400;

/** Bytes per message to ingest. */
export const UPLOAD_CHUNK_BYTES = 64 * 1024;

/** Content held in memory, in upload-sized chunks. */
export function* chunksOf(content: Uint8Array): Iterable<Uint8Array> {
  for (let offset = 0; offset < content.length; offset += UPLOAD_CHUNK_BYTES) yield content.subarray(offset, offset + UPLOAD_CHUNK_BYTES);
}

/** Sends one file; answers once ingest has stored it, its job and its event. */
export function uploadActivity(
  ingest: IngestServiceClient,
  header: UploadHeader,
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  settings: CallSettings,
): Promise<UploadActivityResponse> {
  return callClientStreaming(ingest, IngestServiceService.uploadActivity, uploadParts(header, chunks), settings);
}

async function* uploadParts(header: UploadHeader, chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>) {
  yield { part: { $case: 'header' as const, value: header } };
  for await (const chunk of chunks) yield { part: { $case: 'chunk' as const, value: Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength) } };
}
