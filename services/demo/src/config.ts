import Type from 'typebox';
import { loadConfig } from '@parlance/platform/config';
import { serviceAddress, type HostConfig } from '@parlance/platform/host/host-config';

export const DemoConfigSchema = Type.Object({
  DEMO_DATA: Type.Boolean({ default: false, description: 'send the demo company’s calls and meetings through the pipeline once, at the first start (make run sets it; needs IDENTITY_DEMO_ACCOUNT)' }),
  DEMO_CALLS: Type.Integer({ minimum: 0, maximum: 100_000, default: 2_000, description: 'calls the demo data holds' }),
  DEMO_MEETINGS: Type.Integer({ minimum: 0, maximum: 100_000, default: 200, description: 'meetings the demo data holds' }),
  DEMO_RECORDED_CALLS: Type.Integer({
    minimum: 0,
    maximum: 50,
    default: 5,
    description: 'of the calls, how many are two-voice recordings spoken by espeak-ng (when it is installed) and transcribed; they go round the teams, one call of each in turn',
  }),
  DEMO_SEED: Type.Integer({ minimum: 0, default: 26, description: 'seed of the demo conversations: the same seed gives the same conversations' }),
});

export interface DemoConfig {
  enabled: boolean;
  calls: number;
  meetings: number;
  recordedCalls: number;
  seed: number;
  identityAddress: string;
  ingestAddress: string;
}

/** Reads the demo data settings; throws ConfigError naming each bad variable. */
export function loadDemoConfig(hostConfig: HostConfig, env: NodeJS.ProcessEnv = process.env): DemoConfig {
  const raw = loadConfig(DemoConfigSchema, env);
  return {
    enabled: raw.DEMO_DATA,
    calls: raw.DEMO_CALLS,
    meetings: raw.DEMO_MEETINGS,
    recordedCalls: Math.min(raw.DEMO_RECORDED_CALLS, raw.DEMO_CALLS),
    seed: raw.DEMO_SEED,
    identityAddress: serviceAddress('identity', hostConfig, env),
    ingestAddress: serviceAddress('ingest', hostConfig, env),
  };
}
