/**
 * Who is the representative in an uploaded call-centre transcript, measured on public data (issue
 * 33): every CompliBench conversation (airlines and healthcare customer service, in a folder laid
 * out like shared/datasets) is uploaded as a text call through the gateway over real HTTP, its turns
 * labelled "Agent:" and "Customer:" as a contact centre's export writes them, one line a turn. Once
 * the jobs are done the stored transcripts are read back: the agent must be the representative,
 * and the customer must not. The conversations often have the customer introduce themselves ("my
 * name is …"), which must never outweigh the labels. The dataset's words stay in this file; product
 * code knows nothing of them.
 *
 * A bench rather than a test: the data sits beside the repository (../shared/datasets), not in it,
 * so a fresh clone elsewhere has none. test/uploads/roles-and-labels.test.ts holds the same rule on
 * conversations of its own. Exits 1 when any conversation gets the roles wrong.
 *
 *   node --import tsx bench/complibench-roles.bench.ts     # DATASETS=<dir> (default ../shared/datasets)
 *
 * Prints a JSON line: {"bench":"transcription.complibench-roles",…}.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { SpeakerRole } from '@parlance/proto/parlance/transcription/v1/transcription';
import { startIdentityStack } from '../test/support/identity-stack.js';
import { finishedJob, storedTranscript, uploadingCompany } from '../test/uploads/upload-fixtures.js';

const DATASETS_DIR = process.env.DATASETS || path.resolve('..', 'shared', 'datasets');
const COMPLIBENCH_DOMAINS = ['airlines', 'healthcare'];
/** Uploads in flight at once: enough to keep the pipeline busy without flooding two cores. */
const UPLOADS_AT_ONCE = 8;

interface Conversation {
  name: string;
  content: string;
}

interface CompliBenchFile {
  message_list: { role: string; content: string | null }[];
}

/** The conversation as a contact centre's export writes it: "Agent: …" and "Customer: …", a turn a line. */
function asLabelledTranscript(file: CompliBenchFile): string {
  return file.message_list
    .map((message) => ({ label: message.role === 'assistant' ? 'Agent' : 'Customer', text: (message.content ?? '').replace(/\s+/gu, ' ').trim() }))
    .filter((turn) => turn.text !== '')
    .map((turn) => `${turn.label}: ${turn.text}`)
    .join('\n');
}

async function loadConversations(): Promise<Conversation[]> {
  const conversations: Conversation[] = [];
  for (const domain of COMPLIBENCH_DOMAINS) {
    const folder = path.join(DATASETS_DIR, 'complibench', domain);
    const names = (await readdir(folder)).filter((name) => name.endsWith('.json')).sort();
    for (const name of names) {
      const file = JSON.parse(await readFile(path.join(folder, name), 'utf8')) as CompliBenchFile;
      conversations.push({ name: `${domain}/${name}`, content: asLabelledTranscript(file) });
    }
  }
  return conversations;
}

/** Runs `work` over `items`, at most `limit` at a time, keeping the order of the results. */
async function inPool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

const conversations = await loadConversations();
const stack = await startIdentityStack({ withIngest: true });
try {
  const company = await uploadingCompany(stack, { first_name: 'Grace', last_name: 'Hopper' });
  const started = performance.now();
  const outcomes = await inPool(conversations, UPLOADS_AT_ONCE, async (conversation) => {
    const upload = await company.browser.post<{ jobId: string }>('/api/calls/transcribe/text', {
      fileName: `${conversation.name.replace('/', '-').replace(/\.json$/u, '')}.txt`,
      content: conversation.content,
      date: '2026-11-20T09:30:00Z',
      teamId: company.teamId,
      representative: company.representative.email,
      repName: company.representative.first_name,
    });
    if (upload.status !== 200) throw new Error(`uploading ${conversation.name} answered ${upload.status}: ${JSON.stringify(upload.body)}`);
    const job = await finishedJob(company.browser, `/api/queue/job/${upload.body.jobId}`, 300_000);
    if (!job.isCompleted) throw new Error(`the job of ${conversation.name} failed: ${job.failedReason}`);
    const transcript = await storedTranscript(stack, company.companyId, job.activityId);
    const roleOf = (label: string) => transcript?.speakers.find((speaker) => speaker.label === label)?.role;
    const right = roleOf('Agent') === SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE && roleOf('Customer') !== SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE;
    return { name: conversation.name, right };
  });
  const seconds = (performance.now() - started) / 1000;
  const right = outcomes.filter((outcome) => outcome.right).length;
  const wrong = outcomes.filter((outcome) => !outcome.right).map((outcome) => outcome.name);
  console.log(
    JSON.stringify({
      bench: 'transcription.complibench-roles',
      conversations: outcomes.length,
      agent_is_representative: right,
      share: +(right / outcomes.length).toFixed(4),
      seconds: +seconds.toFixed(1),
      wrong,
    }),
  );
  if (wrong.length > 0) process.exitCode = 1;
} finally {
  await stack.stop();
}
