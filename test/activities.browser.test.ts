/**
 * The /activities screen in Chromium against the standalone product (issue 14, point 8), nothing
 * faked: the demo manager uploads a stereo two-voice recording (spoken by espeak-ng, transcribed by
 * Whisper on the speech server the product supervises) and three text calls through Upload Calls and a meeting transcript through Upload
 * Meetings, with the file choosers, and watches them become scored rows; filters the calls by
 * score ≥ 8 and by a failed criterion (every row shown as the API answers for the same filter);
 * opens a summary, clicks a piece of evidence and hears the recording play from that moment
 * (streamed with byte ranges); exports the summary and reads the CSV; shares it and reads the
 * captured e-mail; reports an issue; deletes a call. Then every list and dialog is opened at 375,
 * 768 and 1440 px and must fit the window. Every screen passed is saved in .run/screenshots.
 *
 * The journey brings its own calls, and holds with the standalone product's demo data too: it
 * never counts the whole list, it checks that every row shown satisfies a filter and that its own
 * rows are where they should be.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { synthesizeCall, type SynthesizedCall } from '../services/transcription/test/support/synthesized-call.js';
import { capturedMail } from './support/captured-mail.js';
import { parseCsv } from './support/csv.js';
import { explainFailures, horizontalOverflow, signInAsDemo, type StandaloneBrowser, startStandaloneBrowser, WIDTHS } from './support/standalone-browser.js';
import { waitFor } from './support/wait-for.js';

/**
 * The demo data the standalone product sends through its pipeline, in the background, once it has
 * started (services/demo): a small amount, no recordings, so the speech server is free for this
 * journey's own. The journey holds whatever these are.
 */
const DEMO_DATA = { DEMO_DATA: 'true', DEMO_CALLS: '60', DEMO_MEETINGS: '10', DEMO_RECORDED_CALLS: '0' } as const;

const TEAM = 'Inbound Sales';
const REPRESENTATIVE = 'maya.okafor@parlance.local';
/**
 * The criterion the filter asks to have failed: the good text call and the recording propose a
 * dated next step ("Does Thursday at ten work for a follow up?" "Thursday at ten works."), the
 * middling and the poor calls do not.
 */
const CRITERION = 'Next steps';

const run = randomUUID().slice(0, 8);
const names = {
  audio: `sales-call-${run}-stereo.wav`,
  good: `booked-demo-${run}.txt`,
  middling: `no-next-step-${run}.txt`,
  poor: `brush-off-${run}.txt`,
  meeting: `pilot-review-${run}.md`,
};

const TEXT_CALLS = {
  good: [
    '[00:00:02] Maya: Thank you for calling Parlance, this is Maya. May I ask who I am speaking with?',
    '[00:00:07] Jordan: Hi Maya, this is Jordan from Northwind. We want a better way to review our sales calls.',
    '[00:00:13] Maya: Thanks Jordan. What made you reach out today? How do you review your calls now, and what would you like to improve?',
    '[00:00:20] Jordan: Managers listen to a few recordings a week, and it takes far too long. I am also worried about the price.',
    '[00:00:27] Maya: I understand the price concern, Jordan. Our team plan is thirty dollars per user, and the first month is free, so you can judge the value first.',
    '[00:00:34] Jordan: That sounds fair.',
    '[00:00:38] Maya: Since reviewing takes your managers too long, our platform scores every call automatically against your own script, so they only listen to the calls that need them.',
    '[00:00:46] Jordan: That would save us hours.',
    '[00:00:50] Maya: Based on what you said, I would suggest a short demo. Would Thursday at ten suit you?',
    '[00:00:55] Jordan: Yes, Thursday at ten works. We agree to the demo.',
    '[00:00:59] Maya: Great, Jordan, I have booked the demo for Thursday at ten and will send you the invitation.',
  ],
  middling: [
    '[00:00:02] Maya: Thank you for calling Parlance, this is Maya. May I ask who I am speaking with?',
    '[00:00:06] Robin: Hi, this is Robin from Contoso.',
    '[00:00:10] Maya: Thanks Robin. How do you review your calls now, and what would you like to improve?',
    '[00:00:18] Robin: We listen to a handful of recordings each week, but it is slow. Is it expensive?',
    '[00:00:25] Maya: The prices are on our website. Anything else?',
    '[00:00:29] Robin: No, I will think about it.',
    '[00:00:32] Maya: Okay, bye Robin.',
  ],
  poor: ['[00:00:01] Maya: Yes?', '[00:00:03] Casey: I wanted to ask about pricing.', '[00:01:05] Maya: It is on the website. Bye.'],
} as const;

const MEETING = [
  '[00:00:00] Maya: Good morning everyone, thank you for joining. My name is Maya, from Parlance.',
  '[00:00:10] Priya: Morning. We want to review the pilot results before we decide on the rollout.',
  '[00:02:30] Maya: What worked well for your team, and what should change?',
  '[00:04:00] Priya: The reports worked well. We agree to extend the pilot until March and meet again on Friday at nine.',
].join('\n');

let product: StandaloneBrowser;
explainFailures(() => product);
let workDir: string;
let recording: SynthesizedCall;
const file = (name: string) => path.join(workDir, name);

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'parlance-activities-'));
  [product, recording] = await Promise.all([
    startStandaloneBrowser({ IDENTITY_DEMO_ACCOUNT: 'true', ...DEMO_DATA }),
    synthesizeCall(workDir, { script: 'sales', turns: 10, seed: 3, name: `sales-call-${run}` }),
  ]);
  for (const kind of ['good', 'middling', 'poor'] as const) await writeFile(file(names[kind]), `${TEXT_CALLS[kind].join('\n')}\n`);
  await writeFile(file(names.meeting), `${MEETING}\n`);
}, 120_000);

afterAll(async () => {
  await product?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
}, 60_000);

// ---------------------------------------------------------------------------------------------
// What the API answers, as far as the journey reads it

interface CallRow {
  id: string;
  audio_date: string;
  audio_duration: number;
  score: number | null;
  status: string;
  media: 'audio' | 'text';
  fileName: string;
  evaluation: Array<{ id: string; criteria: Array<{ id: string; result: boolean }> }>;
}
interface MeetingRow {
  id: string;
  title: string;
  score: number | null;
  status: string;
}
interface ListOf<T> {
  data: T[];
  pagination: { totalPages: number };
}
interface Evidence {
  quote: string;
  segmentIndex: number;
  startMs: number | null;
}
interface CallSummary {
  transcript: string;
  summary: string;
  improvements: Array<{ id: string; name: string; criteria: Array<{ id: string; name: string; suggestion: string }> }>;
  segments: Array<{ index: number; speaker: string; role: string; startMs: number | null; text: string }>;
  evaluation: {
    score: number;
    verdicts: Array<{ groupId: string; groupName: string; criterionId: string; criterionName: string; passed: boolean; needsReview: boolean; reason: string; evidence: Evidence[] }>;
  } | null;
}
interface Team {
  id: string;
  name: string;
  criteria_group: Array<{ id: string; name: string; criteria: Array<{ id: string; name: string }> }>;
}

/** A GET from the page's own session (its cookies), as the web app makes it. */
async function fromThePage<T>(page: Page, url: string): Promise<T> {
  const answer = await page.evaluate(async (address) => {
    const response = await fetch(address);
    return { status: response.status, body: (await response.json()) as unknown };
  }, url);
  if (answer.status !== 200) throw new Error(`GET ${url} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}

// ---------------------------------------------------------------------------------------------
// The page

/** The little of the DOM the in-page checks use (the tests' TypeScript has no DOM library). */
interface InPageElement {
  scrollWidth: number;
  clientWidth: number;
  scrollHeight: number;
  clientHeight: number;
  getBoundingClientRect(): { left: number; right: number; top: number; bottom: number };
  getAnimations(options?: { subtree: boolean }): Array<{ finished: Promise<unknown> }>;
  querySelectorAll(selector: string): ArrayLike<InPageElement>;
  textContent: string | null;
  parentElement: InPageElement | null;
}
interface InPageAudio {
  currentTime: number;
  paused: boolean;
  readyState: number;
  duration: number;
  currentSrc: string;
}

/** /activities with the team chosen in the toolbar and its calls listed, 100 a page. */
async function openActivities(page: Page): Promise<void> {
  await page.goto(`${product.base}/activities`);
  await page.getByRole('tabpanel').getByLabel('Team', { exact: true }).selectOption({ label: TEAM });
  await hundredAPage(page, 'Calls');
}

const table = (page: Page, caption: 'Calls' | 'Meetings') => page.getByRole('table', { name: caption });

/** Waits for the table to show what was read (no loading row). */
const listed = (page: Page, caption: 'Calls' | 'Meetings') => table(page, caption).and(page.locator('[aria-busy="false"]')).waitFor();

/**
 * 100 rows a page, and waits for them: whatever demo data the product holds, this journey's rows
 * (the newest) are on the first page.
 */
async function hundredAPage(page: Page, caption: 'Calls' | 'Meetings'): Promise<void> {
  const pathname = caption === 'Calls' ? '/api/calls/' : '/api/meetings';
  const answered = page.waitForResponse((response) => {
    const url = new URL(response.url());
    return url.pathname === pathname && url.searchParams.get('limit') === '100';
  });
  await page.getByLabel('Display').selectOption('100');
  await answered;
  await listed(page, caption);
}

/** The rows a table shows, each as its column headers to the text of its cells (✓, ✗ or N/A for results). */
async function shownRows(page: Page, caption: 'Calls' | 'Meetings'): Promise<Array<Record<string, string>>> {
  return table(page, caption).evaluate((element) => {
    const tableElement = element as unknown as InPageElement;
    const text = (cell: InPageElement) => (cell.textContent ?? '').replace(/\s+/g, ' ').trim();
    const headers = Array.from(tableElement.querySelectorAll('thead th')).map(text);
    return Array.from(tableElement.querySelectorAll('tbody tr'))
      .map((row) => Array.from(row.querySelectorAll('td')))
      .filter((cells) => cells.length === headers.length)
      .map((cells) => Object.fromEntries(cells.map((cell, index) => [headers[index] ?? '', text(cell)])));
  });
}

const rowOf = (page: Page, kind: 'call' | 'meeting', id: string) => page.getByRole('row').filter({ has: page.getByRole('button', { name: `Copy link to ${kind} ${id}` }) });

/** A toast at the bottom right, by its words. */
const toast = (page: Page, text: string) => page.locator('.toast-region').getByText(text, { exact: true });

/** Waits for a modal dialog to finish its opening animation, so its box is where it stays. */
async function settled(dialog: Locator): Promise<void> {
  // The backdrop turns visible on the frame after the dialog mounts; then the panel fades in.
  await dialog.locator('xpath=..').and(dialog.page().locator('.modal-backdrop--visible')).waitFor();
  await dialog.evaluate(async (element) => {
    const backdrop = (element as unknown as InPageElement).parentElement!;
    await Promise.all(backdrop.getAnimations({ subtree: true }).map((animation) => animation.finished.catch(() => undefined)));
  });
}

/**
 * Nothing scrolls the page sideways, and the box (a dialog or popover) lies within the window and
 * does not scroll sideways itself.
 */
async function expectFits(page: Page, what: string, box?: Locator): Promise<void> {
  const width = page.viewportSize()!.width;
  const measured = box
    ? await box.evaluate((element) => {
        const shown = element as unknown as InPageElement;
        const rect = shown.getBoundingClientRect();
        return { left: rect.left, right: rect.right, innerOverflow: shown.scrollWidth - shown.clientWidth };
      })
    : { left: 0, right: 0, innerOverflow: 0 };
  expect({ what, pageOverflow: await horizontalOverflow(page), withinWindow: measured.left >= 0 && measured.right <= width, innerOverflow: measured.innerOverflow }).toEqual({
    what,
    pageOverflow: 0,
    withinWindow: true,
    innerOverflow: 0,
  });
}

/** Whether the element is wholly inside every ancestor that scrolls (so on screen, if they are). */
function inView(target: Locator): Promise<boolean> {
  return target.evaluate((element) => {
    const item = element as unknown as InPageElement;
    const box = item.getBoundingClientRect();
    for (let ancestor = item.parentElement; ancestor; ancestor = ancestor.parentElement) {
      if (ancestor.scrollHeight <= ancestor.clientHeight + 1) continue;
      const clip = ancestor.getBoundingClientRect();
      if (box.top < clip.top - 1 || box.bottom > clip.bottom + 1) return false;
    }
    return true;
  });
}

/** Chooses files through the browser's file chooser, opened by clicking the labelled input. */
async function chooseFiles(page: Page, input: Locator, paths: string[]): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), input.click()]);
  await chooser.setFiles(paths);
}

/**
 * The jobs the page's uploads start and the activities they end as, read from the page's own
 * traffic (file name → job → call or meeting id).
 */
function watchUploads(page: Page, audioName: string) {
  const jobs = new Map<string, string>();
  const activities = new Map<string, string>();
  page.on('response', (response: Response) => {
    void (async () => {
      const url = new URL(response.url());
      const method = response.request().method();
      if (response.status() >= 300 || !url.pathname.startsWith('/api/')) return;
      if (method === 'POST' && url.pathname === '/api/calls/transcribe/text') {
        jobs.set((response.request().postDataJSON() as { fileName: string }).fileName, ((await response.json()) as { jobId: string }).jobId);
      } else if (method === 'POST' && url.pathname === '/api/calls/transcribe/audio') {
        jobs.set(audioName, ((await response.json()) as { jobId: string }).jobId);
      } else if (method === 'POST' && url.pathname === '/api/meetings/upload') {
        jobs.set((response.request().postDataJSON() as { meetingName: string }).meetingName, ((await response.json()) as { jobId: string }).jobId);
      } else if (method === 'GET' && /^\/api\/(queue\/job|meetings\/upload-status)\//.test(url.pathname)) {
        const job = (await response.json()) as { isCompleted: boolean; activityId?: string };
        if (job.isCompleted && job.activityId) activities.set(decodeURIComponent(url.pathname.split('/').pop()!), job.activityId);
      }
    })().catch(() => undefined);
  });
  return (fileName: string) => {
    const jobId = jobs.get(fileName);
    const id = jobId === undefined ? undefined : activities.get(jobId);
    if (!id) throw new Error(`no finished job seen for ${fileName}`);
    return id;
  };
}

/** An answer the page got to GET /api/calls/, numbered in the order it arrived. */
type ListAnswer = { seq: number; query: URLSearchParams; body: ListOf<CallRow> };

/** Records every answer the page gets to GET /api/calls/. */
function watchCallLists(page: Page): { answers: ListAnswer[]; count: () => number } {
  const answers: ListAnswer[] = [];
  let count = 0;
  page.on('response', (response: Response) => {
    const url = new URL(response.url());
    if (response.request().method() !== 'GET' || url.pathname !== '/api/calls/' || response.status() !== 200) return;
    const seq = (count += 1);
    void response
      .json()
      .then((body) => answers.push({ seq, query: url.searchParams, body: body as ListOf<CallRow> }))
      .catch(() => undefined);
  });
  return { answers, count: () => count };
}

/**
 * Waits until the calls table shows, row for row, the newest answer (after answer number `since`)
 * to a query that satisfies `wanted`; a list that reads itself again while rows are processing
 * may answer more than once. Returns that answer and the rows shown.
 */
async function listedAs(page: Page, lists: ReturnType<typeof watchCallLists>, since: number, wanted: (query: URLSearchParams) => boolean) {
  return waitFor('the calls table to show the list answered for the filter', async () => {
    const answer = lists.answers.filter((entry) => entry.seq > since && wanted(entry.query)).sort((a, b) => b.seq - a.seq)[0];
    if (!answer) return undefined;
    const rows = await shownRows(page, 'Calls');
    return JSON.stringify(rows.map((row) => row.Id)) === JSON.stringify(answer.body.data.map((call) => call.id)) ? { ...answer, rows } : undefined;
  });
}

/** Opens a column's filter dropdown, lets `edit` change it, and closes it with Done. */
async function filterColumn(page: Page, column: string, shot: string, edit: (popover: Locator) => Promise<void>): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^Filter ${column}( \\(filtered\\))?$`) }).click();
  const popover = page.getByRole('dialog', { name: `${column} filter` });
  await edit(popover);
  await expectFits(page, `${column} filter`, popover);
  await product.screenshot(page, shot);
  await popover.getByRole('button', { name: 'Done' }).click();
  await popover.waitFor({ state: 'detached' });
}

// ---------------------------------------------------------------------------------------------
// CSV

/** A spreadsheet cell that would start a formula is written with a leading apostrophe. */
const asWritten = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

const localDay = (date: Date) => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// ---------------------------------------------------------------------------------------------

describe('the /activities screen in Chromium, with the standalone product', () => {
  let page: Page;
  let problems: string[];
  let activityOf: (fileName: string) => string;
  let lists: ReturnType<typeof watchCallLists>;
  let team: Team;
  const ids = { audio: '', good: '', middling: '', poor: '', meeting: '' };

  it('uploads a stereo recording and three text calls through Upload Calls and watches them become scored rows', async () => {
    const opened = await product.open(WIDTHS.desktop);
    page = opened.page;
    problems = opened.problems;
    activityOf = watchUploads(page, names.audio);
    lists = watchCallLists(page);
    await signInAsDemo(page, product.base);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Activities' }).click();
    await page.waitForURL(`${product.base}/activities`);
    await page.getByRole('tabpanel').getByLabel('Team', { exact: true }).selectOption({ label: TEAM });
    team = (await fromThePage<Team[]>(page, '/api/teams/fetch/?department=sales')).find((candidate) => candidate.name === TEAM)!;
    await hundredAPage(page, 'Calls');
    await product.screenshot(page, 'activities-calls-before-upload');

    await page.getByRole('button', { name: 'Upload Calls' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload Audio/Text Files' });
    await settled(dialog);
    // The representative is asked for once a team is chosen.
    expect(await dialog.getByLabel('Representative').count()).toBe(0);
    await dialog.getByLabel('Team').selectOption({ label: TEAM });
    await dialog.getByLabel('Representative').selectOption(REPRESENTATIVE);
    await chooseFiles(page, dialog.getByLabel('Audio files'), [recording.stereoPath]);
    await chooseFiles(page, dialog.getByLabel('Text files'), [file(names.good), file(names.middling), file(names.poor)]);
    await product.screenshot(page, 'activities-upload-calls-chosen');
    await dialog.getByRole('button', { name: 'Upload' }).click();

    // Sent one by one, then processed together: the recording takes the speech server a while.
    await dialog.getByRole('button', { name: 'Uploading...' }).waitFor();
    await dialog.getByText('All files uploaded! Processing 4 files...').waitFor({ timeout: 30_000 });
    expect(await dialog.getByRole('progressbar').evaluateAll((bars) => bars.map((bar) => (bar as unknown as { value: number }).value))).toEqual([100, 100, 100, 100]);
    expect(await dialog.getByRole('button', { name: 'Cancel' }).isDisabled()).toBe(true);
    await product.screenshot(page, 'activities-upload-calls-processing');
    await toast(page, 'Processed 4/4 files successfully.').waitFor({ timeout: 180_000 });
    await dialog.waitFor({ state: 'detached' });
    await product.screenshot(page, 'activities-upload-calls-done');

    ids.audio = activityOf(names.audio);
    ids.good = activityOf(names.good);
    ids.middling = activityOf(names.middling);
    ids.poor = activityOf(names.poor);
    const mine = [ids.audio, ids.good, ids.middling, ids.poor];

    // The list reads itself again after the upload; each row shows its score once scored.
    const shown = await waitFor(
      'the four uploaded calls to show as scored rows',
      async () => {
        const rows = (await shownRows(page, 'Calls')).filter((row) => mine.includes(row.Id!));
        return rows.length === 4 && rows.every((row) => /^\d+\.\d$/.test(row.Score!)) ? rows : undefined;
      },
      30_000,
    );
    await product.screenshot(page, 'activities-calls-scored');

    // The screen shows what the API says of each call.
    const answered = await fromThePage<ListOf<CallRow>>(page, `/api/calls/?teamId=${team.id}&callIds=${mine.join(',')}`);
    for (const row of shown) {
      const call = answered.data.find((candidate) => candidate.id === row.Id)!;
      expect(row.Score).toBe(call.score!.toFixed(1));
      expect(row.Representative).toBe('Maya');
      const seconds = Math.round(call.audio_duration);
      expect(row.Duration).toBe(`${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`);
    }
    const byId = new Map(answered.data.map((call) => [call.id, call]));
    expect(byId.get(ids.audio)).toMatchObject({ media: 'audio', fileName: names.audio, status: 'scored' });
    expect(Math.abs(byId.get(ids.audio)!.audio_duration - recording.durationMs / 1000)).toBeLessThanOrEqual(1);
    expect(byId.get(ids.good)).toMatchObject({ media: 'text', fileName: names.good });
    // What the filters below rely on: only the good call scores 8 or more.
    expect(byId.get(ids.good)!.score).toBeGreaterThanOrEqual(8);
    for (const other of [ids.audio, ids.middling, ids.poor]) expect(byId.get(other)!.score).toBeLessThan(8);
    expect(problems).toEqual([]);
  }, 240_000);

  it('filters the calls by score ≥ 8 and by a failed criterion, showing every row the API answers and only those', async () => {
    const group = team.criteria_group.find((candidate) => candidate.criteria.some((criterion) => criterion.name === CRITERION))!;
    const criterion = group.criteria.find((candidate) => candidate.name === CRITERION)!;
    const resultOf = (call: CallRow) => call.evaluation.find((entry) => entry.id === group.id)?.criteria.find((entry) => entry.id === criterion.id)?.result;

    // Score ≥ 8.
    let since = lists.count();
    await filterColumn(page, 'Score', 'activities-filter-score', async (popover) => {
      await popover.getByLabel('Operator').selectOption('gte');
      await popover.getByLabel('Score').fill('8');
    });
    let { query, body, rows } = await listedAs(page, lists, since, (asked) => asked.has('score'));
    expect(JSON.parse(query.get('score')!)).toEqual({ value: 8, operator: 'gte' });
    expect(query.get('teamId')).toBe(team.id);
    expect(body.data.filter((call) => call.score === null || call.score < 8)).toEqual([]);
    expect(rows.filter((row) => !(Number(row.Score) >= 8))).toEqual([]);
    expect(rows.map((row) => row.Id)).toContain(ids.good);
    for (const other of [ids.audio, ids.middling, ids.poor]) expect(rows.map((row) => row.Id)).not.toContain(other);
    await page.getByRole('button', { name: 'Filter Score (filtered)' }).waitFor();
    await product.screenshot(page, 'activities-calls-score-at-least-8');

    // Reset brings every call back.
    since = lists.count();
    await filterColumn(page, 'Score', 'activities-filter-score-reset', async (popover) => {
      await popover.getByRole('button', { name: 'Reset' }).click();
      expect(await popover.getByLabel('Score').inputValue()).toBe('');
    });
    ({ rows } = await listedAs(page, lists, since, (asked) => !asked.has('score') && !asked.has('criterion')));
    for (const id of [ids.audio, ids.good, ids.middling, ids.poor]) expect(rows.map((row) => row.Id)).toContain(id);

    // The criterion failed: only No ticked.
    since = lists.count();
    await filterColumn(page, CRITERION, 'activities-filter-criterion', async (popover) => {
      await popover.getByLabel('Yes').uncheck();
      expect(await popover.getByLabel('No').isChecked()).toBe(true);
    });
    ({ query, body, rows } = await listedAs(page, lists, since, (asked) => asked.has('criterion')));
    expect(JSON.parse(query.get('criterion')!)).toEqual([{ criterionGroupId: group.id, criterionId: criterion.id, result: false }]);
    expect(body.data.filter((call) => resultOf(call) !== false).map((call) => call.id)).toEqual([]);
    expect(rows.filter((row) => row[CRITERION] !== '✗')).toEqual([]);
    for (const failed of [ids.middling, ids.poor]) expect(rows.map((row) => row.Id)).toContain(failed);
    // The recording proposes Thursday at ten and hears it confirmed: heard right, it meets the criterion.
    for (const met of [ids.good, ids.audio]) expect(rows.map((row) => row.Id)).not.toContain(met);
    await product.screenshot(page, 'activities-calls-criterion-failed');

    since = lists.count();
    await filterColumn(page, CRITERION, 'activities-filter-criterion-reset', async (popover) => {
      await popover.getByRole('button', { name: 'Reset' }).click();
    });
    ({ rows } = await listedAs(page, lists, since, (asked) => !asked.has('criterion') && !asked.has('score')));
    expect(rows.map((row) => row.Id)).toContain(ids.good);
    expect(problems).toEqual([]);
  }, 60_000);

  let summary: CallSummary;
  let evidence: Evidence;

  it('opens the recorded call’s summary, plays the recording from a piece of evidence, and exports the summary as CSV', async () => {
    const recordingAnswers: Array<{ status: number; range: string | undefined; contentRange: string | undefined }> = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === `/api/calls/${ids.audio}/recording`) {
        recordingAnswers.push({ status: response.status(), range: response.request().headers().range, contentRange: response.headers()['content-range'] });
      }
    });
    summary = await fromThePage<CallSummary>(page, `/api/calls/summary/${ids.audio}`);

    await page.getByRole('button', { name: `Summary of call ${ids.audio}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Call Summary and Analysis' });
    await settled(dialog);
    await dialog.getByRole('heading', { name: 'Analysis', exact: true }).waitFor();
    await dialog.getByText(summary.summary).waitFor();
    // The stereo recording: one speaker per channel, the representative first.
    const segments = dialog.locator('li[data-segment-index]');
    expect(await segments.count()).toBe(summary.segments.length);
    expect(await segments.first().getByText('Representative', { exact: true }).count()).toBe(1);
    expect(await dialog.getByText('Contact', { exact: true }).count()).toBeGreaterThan(0);
    expect(await dialog.getByText(`${summary.improvements.flatMap((group) => group.criteria).length} improvements suggested`).count()).toBeGreaterThan(0);
    await product.screenshot(page, 'activities-call-summary');

    const audio = dialog.getByLabel('Call recording');
    const audioState = () => audio.evaluate((element) => {
      const player = element as unknown as InPageAudio;
      return { currentTime: player.currentTime, paused: player.paused, readyState: player.readyState, duration: player.duration, src: player.currentSrc };
    });
    // preload=metadata: the duration is known before anything plays.
    const loaded = await waitFor('the recording’s metadata', async () => {
      const state = await audioState();
      return state.readyState >= 1 ? state : undefined;
    });
    expect(loaded.src).toBe(`${product.base}/api/calls/${ids.audio}/recording`);
    expect(Math.abs(loaded.duration - recording.durationMs / 1000)).toBeLessThan(0.5);
    expect(loaded.paused).toBe(true);

    // A piece of evidence said some seconds into the call.
    const found = summary.evaluation!.verdicts.flatMap((verdict) => verdict.evidence).find((item) => item.startMs !== null && item.startMs > 5_000);
    expect(found, 'a piece of evidence with its moment').toBeDefined();
    evidence = found!;
    const from = evidence.startMs! / 1000;
    await dialog.getByRole('button', { name: new RegExp(escapeRegExp(evidence.quote)) }).first().click();

    const segment = dialog.locator(`li[data-segment-index="${evidence.segmentIndex}"]`);
    expect(await segment.getAttribute('aria-current')).toBe('true');
    expect(await segment.locator('mark').textContent()).toBe(evidence.quote);
    // The transcript scrolls the quoted segment into its view; the player stays in view above it.
    await waitFor('the quoted segment to scroll into view', async () => ((await inView(segment)) ? true : undefined));
    expect(await inView(audio)).toBe(true);

    // It plays from there, and keeps playing.
    const started = await waitFor('the recording to play from the evidence', async () => {
      const state = await audioState();
      return !state.paused && state.currentTime >= from - 0.05 ? state : undefined;
    });
    expect(started.currentTime).toBeLessThan(from + 3);
    await waitFor('the recording to move on', async () => ((await audioState()).currentTime > started.currentTime + 0.5 ? true : undefined), 10_000);
    // The seek was served as a byte range of the stored file.
    const size = (await stat(recording.stereoPath)).size;
    expect(recordingAnswers.filter((answer) => answer.status === 206).length).toBeGreaterThan(0);
    for (const answer of recordingAnswers.filter((entry) => entry.status === 206)) {
      expect(answer.range).toMatch(/^bytes=\d+-\d*$/);
      expect(answer.contentRange).toMatch(new RegExp(`^bytes \\d+-\\d+/${size}$`));
    }
    expect(recordingAnswers.filter((answer) => answer.status !== 206 && answer.status !== 200)).toEqual([]);
    await product.screenshot(page, 'activities-call-summary-evidence-playing');
    await audio.evaluate((element) => (element as unknown as { pause(): void }).pause());

    // Export: call-summary-{callId}-{date}.csv with Section, Category, Item, Content.
    const before = new Date();
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Export' }).click()]);
    const days = [localDay(before), localDay(new Date())].map((day) => `call-summary-${ids.audio}-${day}.csv`);
    expect(days).toContain(download.suggestedFilename());
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const [header, ...lines] = parseCsv(csv.slice(1));
    expect(header).toEqual(['Section', 'Category', 'Item', 'Content']);
    expect(lines.filter((line) => line.length !== 4)).toEqual([]);
    const section = (name: string) => lines.filter((line) => line[0] === name);
    expect(section('Summary')[0]).toEqual(['Summary', 'Overall', 'Summary', asWritten(summary.summary)]);
    expect(section('Improvement')).toEqual(
      summary.improvements.flatMap((group) => group.criteria.map((criterion) => ['Improvement', group.name, criterion.name, asWritten(criterion.suggestion)])),
    );
    expect(section('Verdict')).toEqual(
      summary.evaluation!.verdicts.map((verdict) => {
        const result = verdict.needsReview ? `Needs review (leans to ${verdict.passed ? 'passed' : 'failed'})` : verdict.passed ? 'Passed' : 'Failed';
        return ['Verdict', verdict.groupName, verdict.criterionName, asWritten(verdict.reason ? `${result} — ${verdict.reason}` : result)];
      }),
    );
    expect(section('Statistics')).toContainEqual(['Statistics', 'Overall', 'Score', String(summary.evaluation!.score)]);
    expect(problems).toEqual([]);
  }, 60_000);

  it('shares the summary to an address, which receives the summary and improvements without the transcript, and reports an issue', async () => {
    const dialog = page.getByRole('dialog', { name: 'Call Summary and Analysis' });
    const recipient = `coach-${run}@example.com`;

    await dialog.getByRole('button', { name: 'Share' }).click();
    const share = page.getByRole('dialog', { name: 'Share Summary' });
    await settled(share);
    const address = share.getByLabel('Recipient e-mail');
    const send = share.getByRole('button', { name: 'Send' });
    expect(await send.isDisabled()).toBe(true);
    await address.fill('not-an-address');
    await address.blur();
    await share.getByText('Please enter a valid email address').waitFor();
    expect(await send.isDisabled()).toBe(true);
    await product.screenshot(page, 'activities-share-invalid');
    await address.fill(recipient);
    expect(await send.isDisabled()).toBe(false);
    await address.press('Enter');
    await toast(page, `Summary shared with ${recipient}.`).waitFor();
    await share.waitFor({ state: 'detached' });
    await product.screenshot(page, 'activities-shared');

    const mail = await capturedMail(product.dataDir, recipient);
    const call = (await fromThePage<ListOf<CallRow>>(page, `/api/calls/?teamId=${team.id}&callIds=${ids.audio}`)).data[0]!;
    expect(mail.subject).toBe(`Call summary: ${names.audio} (${call.audio_date.slice(0, 10)})`);
    expect(mail.text).toContain(summary.summary);
    expect(mail.text).toContain('Areas for Improvement');
    for (const group of summary.improvements) {
      expect(mail.text).toContain(`${group.name}:`);
      for (const criterion of group.criteria) expect(mail.text).toContain(`- ${criterion.name}: ${criterion.suggestion}`);
    }
    expect(mail.html).toContain('Areas for Improvement');
    // The transcript stays in Parlance: none of its timed lines, in either part.
    for (const part of [mail.text, mail.html!]) {
      expect(part).not.toMatch(/\[\d+:\d\d\]/);
      for (const line of summary.transcript.split('\n')) expect(part).not.toContain(line);
    }

    await dialog.getByRole('button', { name: 'Report Issue' }).click();
    const report = page.getByRole('dialog', { name: 'Report Issue' });
    await settled(report);
    const submit = report.getByRole('button', { name: 'Submit' });
    expect(await submit.isDisabled()).toBe(true);
    const description = `The transcript of ${names.audio} misses most words; the greeting was said but is marked as missing.`;
    await report.getByLabel('Describe the issue').fill(description);
    await report.getByText(`${description.length}/1000`).waitFor();
    await product.screenshot(page, 'activities-report-issue');
    await submit.click();
    await toast(page, 'Feedback submitted successfully').waitFor();
    await report.waitFor({ state: 'detached' });
    const reports = await fromThePage<{ data: Array<{ activityId: string; activityType: string; description: string }> }>(page, '/api/feedback');
    expect(reports.data).toContainEqual(expect.objectContaining({ activityId: ids.audio, activityType: 'call', description }));

    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
  }, 60_000);

  it('uploads a meeting transcript through Upload Meetings and watches it become a scored row', async () => {
    await page.getByRole('tab', { name: 'Meetings' }).click();
    await hundredAPage(page, 'Meetings');
    await page.getByRole('button', { name: 'Upload Meetings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload Meetings' });
    await settled(dialog);
    expect(await dialog.getByRole('button', { name: 'Upload' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Team').selectOption({ label: TEAM });
    await dialog.getByLabel('Representative').selectOption(REPRESENTATIVE);
    await chooseFiles(page, dialog.getByLabel('Transcript files'), [file(names.meeting)]);
    await dialog.getByRole('list', { name: 'Selected files' }).getByText(names.meeting).waitFor();
    await dialog.getByLabel('Notes').fill('Pilot review with the Northwind team.');
    await product.screenshot(page, 'activities-upload-meetings-chosen');
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await toast(page, 'Successfully uploaded and processed all 1/1 meeting(s)!').waitFor({ timeout: 60_000 });
    await dialog.waitFor({ state: 'detached' });

    ids.meeting = activityOf(names.meeting);
    const row = await waitFor(
      'the meeting to show as a scored row',
      async () => (await shownRows(page, 'Meetings')).find((candidate) => candidate.Id === ids.meeting && /^\d+\.\d$/.test(candidate.Score!)),
      30_000,
    );
    const meeting = (await fromThePage<ListOf<MeetingRow>>(page, `/api/meetings?teamId=${team.id}&meetingIds=${ids.meeting}`)).data[0]!;
    expect(meeting).toMatchObject({ title: path.parse(names.meeting).name, status: 'scored' });
    expect(row.Score).toBe(meeting.score!.toFixed(1));
    expect(row.Duration).toBe('4m 0s');
    await product.screenshot(page, 'activities-meetings-scored');

    await page.getByRole('button', { name: `Summary & Recommendations of meeting ${ids.meeting}` }).click();
    const summaryDialog = page.getByRole('dialog', { name: 'Meeting Summary & Analysis' });
    await settled(summaryDialog);
    await summaryDialog.getByText(path.parse(names.meeting).name, { exact: false }).first().waitFor();
    await summaryDialog.getByText('We agree to extend the pilot until March', { exact: false }).first().waitFor();
    await product.screenshot(page, 'activities-meeting-summary');
    await summaryDialog.getByRole('button', { name: 'Close' }).last().click();
    await summaryDialog.waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
  }, 90_000);

  it('deletes a call after confirming, and it leaves the list', async () => {
    await page.getByRole('tab', { name: 'Calls' }).click();
    await hundredAPage(page, 'Calls');
    await rowOf(page, 'call', ids.poor).waitFor();
    await page.getByRole('button', { name: `Delete call ${ids.poor}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete call' });
    await settled(confirm);
    await confirm.getByText('Are you sure you want to delete this call? This action cannot be undone.').waitFor();
    await product.screenshot(page, 'activities-delete-call-confirm');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Call deleted successfully.').waitFor();
    await confirm.waitFor({ state: 'detached' });
    await rowOf(page, 'call', ids.poor).waitFor({ state: 'detached' });
    expect(await rowOf(page, 'call', ids.middling).count()).toBe(1);
    expect((await fromThePage<ListOf<CallRow>>(page, `/api/calls/?teamId=${team.id}&callIds=${ids.poor}`)).data).toEqual([]);
    await product.screenshot(page, 'activities-call-deleted');
    expect(problems).toEqual([]);
  }, 30_000);

  for (const width of [WIDTHS.phone, WIDTHS.tablet, WIDTHS.desktop]) {
    it(`at ${width} px every list and dialog of the screen fits the window`, async () => {
      expect(ids.audio, 'the journey above made the calls').not.toBe('');
      const { context, page, problems } = await product.open(width);
      const shot = (name: string) => product.screenshot(page, `activities-${name}-${width}`);
      await signInAsDemo(page, product.base);
      await openActivities(page);
      await rowOf(page, 'call', ids.audio).waitFor();
      await expectFits(page, 'calls list');
      await shot('calls');

      await page.getByRole('button', { name: /^Date range: / }).click();
      const range = page.getByRole('dialog', { name: 'Date range' });
      await expectFits(page, 'date range', range);
      await shot('date-range');
      await page.keyboard.press('Escape');
      await range.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Filter Score' }).click();
      const popover = page.getByRole('dialog', { name: 'Score filter' });
      await expectFits(page, 'score filter', popover);
      await page.keyboard.press('Escape');
      await popover.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Filter Needs review' }).click();
      const review = page.getByRole('dialog', { name: 'Needs review filter' });
      await expectFits(page, 'needs review filter', review);
      await page.keyboard.press('Escape');
      await review.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Upload Calls' }).click();
      const upload = page.getByRole('dialog', { name: 'Upload Audio/Text Files' });
      await settled(upload);
      await upload.getByLabel('Team').selectOption({ label: TEAM });
      await upload.getByLabel('Representative').selectOption(REPRESENTATIVE);
      await chooseFiles(page, upload.getByLabel('Text files'), [file(names.good), file(names.middling)]);
      await expectFits(page, 'Upload Calls', upload);
      await shot('upload-calls');
      await upload.getByRole('button', { name: 'Cancel' }).click();
      await upload.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: `Summary of call ${ids.audio}` }).click();
      const summaryDialog = page.getByRole('dialog', { name: 'Call Summary and Analysis' });
      await settled(summaryDialog);
      await summaryDialog.getByRole('heading', { name: 'Analysis', exact: true }).waitFor();
      await expectFits(page, 'Call Summary and Analysis', summaryDialog);
      await shot('call-summary');
      // A piece of evidence brings its segment, with the player above it, into view.
      await summaryDialog.getByRole('button', { name: new RegExp(escapeRegExp(evidence.quote)) }).first().click();
      const segment = summaryDialog.locator(`li[data-segment-index="${evidence.segmentIndex}"]`);
      expect(await segment.getAttribute('aria-current')).toBe('true');
      await waitFor('the quoted segment to scroll into view', async () => ((await inView(segment)) ? true : undefined));
      const player = summaryDialog.getByLabel('Call recording');
      expect(await inView(player)).toBe(true);
      await player.evaluate((element) => (element as unknown as { pause(): void }).pause());
      await shot('call-summary-evidence');
      // The verdicts, those the evaluator is unsure of marked Needs review, as many as the score says.
      const criteria = summaryDialog.getByRole('region', { name: 'Criteria' });
      await criteria.scrollIntoViewIfNeeded();
      const unsure = summary.evaluation!.verdicts.filter((verdict) => verdict.needsReview).length;
      expect(await criteria.getByText('Needs review', { exact: true }).count()).toBe(unsure);
      await expectFits(page, 'Criteria', summaryDialog);
      await shot('call-summary-criteria');
      for (const [button, title] of [
        ['Share', 'Share Summary'],
        ['Report Issue', 'Report Issue'],
      ] as const) {
        await summaryDialog.getByRole('button', { name: button }).click();
        const side = page.getByRole('dialog', { name: title });
        await settled(side);
        await expectFits(page, title, side);
        await shot(title.toLowerCase().replace(/ /g, '-'));
        await side.getByRole('button', { name: 'Cancel' }).click();
        await side.waitFor({ state: 'detached' });
      }
      await summaryDialog.getByRole('button', { name: 'Close' }).last().click();
      await summaryDialog.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: `Delete call ${ids.middling}` }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete call' });
      await settled(confirm);
      await expectFits(page, 'Delete call', confirm);
      await shot('delete-call');
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'detached' });

      await page.getByRole('tab', { name: 'Meetings' }).click();
      await hundredAPage(page, 'Meetings');
      await rowOf(page, 'meeting', ids.meeting).waitFor();
      await expectFits(page, 'meetings list');
      await shot('meetings');

      await page.getByRole('button', { name: 'Upload Meetings' }).click();
      const uploadMeetings = page.getByRole('dialog', { name: 'Upload Meetings' });
      await settled(uploadMeetings);
      await uploadMeetings.getByLabel('Team').selectOption({ label: TEAM });
      await chooseFiles(page, uploadMeetings.getByLabel('Transcript files'), [file(names.meeting)]);
      await uploadMeetings.getByRole('list', { name: 'Selected files' }).waitFor();
      await expectFits(page, 'Upload Meetings', uploadMeetings);
      await shot('upload-meetings');
      await uploadMeetings.getByRole('button', { name: 'Cancel' }).click();
      await uploadMeetings.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: `Summary & Recommendations of meeting ${ids.meeting}` }).click();
      const meetingSummary = page.getByRole('dialog', { name: 'Meeting Summary & Analysis' });
      await settled(meetingSummary);
      await meetingSummary.getByRole('heading', { name: 'Analysis', exact: true }).waitFor();
      await expectFits(page, 'Meeting Summary & Analysis', meetingSummary);
      await shot('meeting-summary');
      await meetingSummary.getByRole('button', { name: 'Close' }).last().click();
      await meetingSummary.waitFor({ state: 'detached' });

      expect(problems).toEqual([]);
      await context.close();
    }, 60_000);
  }
});
