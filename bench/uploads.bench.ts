/**
 * What taking uploads costs: identity, ingest, transcription and the gateway on the local
 * PostgreSQL and Kafka, over real HTTP on loopback (the stack of test/uploads/).
 *
 * - text uploads accepted per second: POST /api/calls/transcribe/text of a 2 KB transcript with
 *   BENCH_CONCURRENCY in flight (each answer means the transcript, its activity, its job and its
 *   event are stored), next to GET /api/billing/plans (one gRPC call, no database) in the same
 *   run; transcription works through the uploads meanwhile, as it would in production;
 * - to completed: from the upload's answer until its job reads completed, one upload at a time on
 *   an idle stack, polled every 5 ms.
 *
 *   npx tsx bench/uploads.bench.ts       # 3 runs x 5 s each, 50 in flight
 *
 * Prints JSON lines: {"bench":"uploads.text",…} and {"bench":"uploads.text-to-completed",…}.
 */
import { startTelemetry } from '@parlance/platform/telemetry';
import { startIdentityStack } from '../test/support/identity-stack.js';
import { uploadingCompany } from '../test/uploads/upload-fixtures.js';
import { callsPerSecond, median, percentile } from './support/measure.js';

const RUNS = 3;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const LATENCY_SAMPLES = 50;

const telemetry = startTelemetry({ serviceName: 'bench' });
const stack = await startIdentityStack({ logLevel: 'warn', withIngest: true });

const transcript = Array.from({ length: 20 }, (_, i) =>
  i % 2 === 0 ? `Daniel: Thank you for calling, this is Daniel. How can I help you with order ${i}?` : `Customer: My parcel ${i} has not arrived and I need it by Friday.`,
).join('\n');

try {
  const company = await uploadingCompany(stack, { first_name: 'Daniel' });
  const body = {
    fileName: 'call.txt',
    content: transcript,
    teamId: company.teamId,
    representative: company.representative.email,
    repName: 'Daniel',
  };
  const upload = async () => {
    const response = await company.browser.post<{ jobId: string }>('/api/calls/transcribe/text', body);
    if (response.status !== 200) throw new Error(`upload answered ${response.status}: ${JSON.stringify(response.body)}`);
    return response.body.jobId;
  };
  const jobStatus = async (jobId: string) => (await company.browser.get<{ isCompleted: boolean; isFailed: boolean }>(`/api/queue/job/${jobId}`)).body;

  const toCompletedMs: number[] = [];
  for (let i = 0; i <= LATENCY_SAMPLES; i++) {
    const jobId = await upload();
    const answered = performance.now();
    for (;;) {
      const status = await jobStatus(jobId);
      if (status.isFailed) throw new Error(`job ${jobId} failed`);
      if (status.isCompleted) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    if (i > 0) toCompletedMs.push(performance.now() - answered);
  }
  console.log(
    JSON.stringify({
      bench: 'uploads.text-to-completed',
      samples: LATENCY_SAMPLES,
      transcript_bytes: Buffer.byteLength(transcript),
      median_ms: +median(toCompletedMs).toFixed(1),
      p95_ms: +percentile(toCompletedMs, 0.95).toFixed(1),
    }),
  );

  const plans = async () => {
    const { status } = await company.browser.get('/api/billing/plans');
    if (status !== 200) throw new Error(`plans answered ${status}`);
  };
  const accept = async () => void (await upload());
  await callsPerSecond(accept, { seconds: 1, concurrency: CONCURRENCY }); // warm-up
  const uploads: number[] = [];
  const publicRuns: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    uploads.push(Math.round(await callsPerSecond(accept, { seconds: SECONDS, concurrency: CONCURRENCY })));
    publicRuns.push(Math.round(await callsPerSecond(plans, { seconds: SECONDS, concurrency: CONCURRENCY })));
  }
  console.log(
    JSON.stringify({
      bench: 'uploads.text',
      transcript_bytes: Buffer.byteLength(transcript),
      concurrency: CONCURRENCY,
      runs: RUNS,
      seconds: SECONDS,
      uploads_per_s: median(uploads),
      public_per_s: median(publicRuns),
      uploads_to_public: +(median(uploads) / median(publicRuns)).toFixed(2),
      upload_runs: uploads,
      public_runs: publicRuns,
    }),
  );
} finally {
  await stack.stop();
  await telemetry.shutdown();
}
