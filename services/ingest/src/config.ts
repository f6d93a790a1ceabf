import { join } from 'node:path';
import Type from 'typebox';
import { loadConfig } from '@parlance/platform/config';
import { serviceAddress, type HostConfig } from '@parlance/platform/host/host-config';

export const IngestConfigSchema = Type.Object({
  INGEST_MEDIA_DIR: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'directory holding uploaded recordings and transcripts (a volume shared by the ingest replicas); defaults to <DATA_DIR>/media',
    }),
  ),
});

export interface IngestConfig {
  mediaDir: string;
  /** host:port of identity, which the teams and representatives of uploads are checked against. */
  identityAddress: string;
}

/** Reads the ingest settings; throws ConfigError naming each bad variable. */
export function loadIngestConfig(hostConfig: HostConfig, env: NodeJS.ProcessEnv = process.env): IngestConfig {
  const raw = loadConfig(IngestConfigSchema, env);
  return {
    mediaDir: raw.INGEST_MEDIA_DIR ?? join(hostConfig.DATA_DIR, 'media'),
    identityAddress: serviceAddress('identity', hostConfig, env),
  };
}
