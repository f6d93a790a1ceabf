/**
 * The calls and meetings lists end to end (issue 14): uploads through the gateway over real HTTP
 * go through ingest, transcription and scoring on PostgreSQL and Kafka, and analytics builds the
 * rows from their events alone. The lists answer the spec's Call and Meeting fields (and how many
 * criteria need review), every filter narrows them as the evaluation says it should, a bad filter
 * is a 400 naming it, a deleted call
 * leaves the list, a recorded call plays with byte ranges, and share and feedback work (the
 * e-mail captured on disk, as standalone does).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdentityStack, type IdentityStack } from '../support/identity-stack.js';
import { waitFor } from '../support/wait-for.js';
import type { CallSummary } from '../scoring/scoring-fixtures.js';
import { finishedJob, uploadingCompany, type UploadingCompany } from '../uploads/upload-fixtures.js';

interface CallRow {
  id: string;
  audio_date: string;
  audio_duration: number;
  representative: string;
  representativeName: string;
  score: number | null;
  script_match: number | null;
  is_successful: boolean | null;
  evaluation: Array<{ id: string; criteria: Array<{ id: string; result: boolean }> }>;
  criteriaNeedingReview: number;
  teamId: string;
  fileName: string;
  media: 'audio' | 'text';
  status: string;
}

interface MeetingRow {
  id: string;
  date: string;
  rep_email: string;
  duration: number;
  score: number | null;
  evaluations: Array<{ group_id: string; criterion_id: string; result: boolean }>;
  criteriaNeedingReview: number;
  transcript: string;
  summary: { summary: string; improvements: Array<{ id: string; criteria: Array<{ id: string; suggestion: string }> }> };
  title: string;
  status: string;
}

interface ListOf<T> {
  data: T[];
  pagination: { page: number; limit: number; total: number; totalPages: number };
}

let stack: IdentityStack;
let acme: UploadingCompany;
let globex: UploadingCompany;
const calls: Array<{ id: string; summary: CallSummary }> = [];
let meetingId: string;

const GOOD_CALL = [
  '[00:00:02] Grace: Thank you for calling Parlance, my name is Grace. How can I help you today?',
  '[00:00:07] Morgan: Hi Grace, we are looking at call analytics for our support team.',
  '[00:00:12] Grace: Great. What tools do you use today, and what would you like to improve?',
  '[00:00:19] Morgan: We use spreadsheets, and reviewing calls takes our managers far too long.',
  '[00:00:26] Grace: Understood. Could I show you a demo on Thursday at 10am?',
  '[00:00:31] Morgan: Thursday at 10 works for us, we agree to the demo.',
].join('\n');

const POOR_CALL = ['[00:00:01] Grace: Yes?', '[00:00:03] Morgan: I wanted to ask about pricing.', '[00:01:05] Grace: It is on the website. Bye.'].join('\n');

const MEETING = [
  '[00:00:00] Grace: Good morning everyone, thank you for joining. My name is Grace.',
  '[00:00:10] Morgan: Morning. We want to review the pilot results.',
  '[00:02:30] Grace: What worked well for your team, and what should change?',
  '[00:04:00] Morgan: The reports worked well. We agree to extend the pilot until March.',
].join('\n');

async function uploadCall(content: string, fileName: string, date: string): Promise<string> {
  const upload = await acme.browser.post<{ jobId: string }>('/api/calls/transcribe/text', {
    fileName,
    content,
    date,
    teamId: acme.teamId,
    representative: acme.representative.email,
    repName: 'Grace',
  });
  expect(upload.status, JSON.stringify(upload.body)).toBe(200);
  const job = await finishedJob(acme.browser, `/api/queue/job/${upload.body.jobId}`);
  expect(job.isCompleted, job.failedReason).toBe(true);
  return job.activityId;
}

const listCalls = async (query = '') => {
  const response = await acme.browser.get<ListOf<CallRow>>(`/api/calls/?teamId=${acme.teamId}${query}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
};

const idsOf = (list: ListOf<{ id: string }>) => list.data.map((row) => row.id).sort();

beforeAll(async () => {
  stack = await startIdentityStack({ withIngest: true });
  [acme, globex] = await Promise.all([uploadingCompany(stack, { first_name: 'Grace' }), uploadingCompany(stack, { first_name: 'Linus' })]);
  const good = await uploadCall(GOOD_CALL, 'good-call.txt', '2026-11-20T09:30:00Z');
  const poor = await uploadCall(POOR_CALL, 'poor-call.txt', '2026-11-21T09:30:00Z');
  for (const id of [good, poor]) {
    const summary = await acme.browser.get<CallSummary>(`/api/calls/summary/${id}`);
    calls.push({ id, summary: summary.body });
  }
  const meeting = await acme.browser.post<{ jobId: string }>('/api/meetings/upload', { meetingName: 'pilot-review.md', content: MEETING, teamId: acme.teamId, repEmail: acme.representative.email });
  expect(meeting.status).toBe(202);
  meetingId = (await finishedJob(acme.browser, `/api/meetings/upload-status/${meeting.body.jobId}`)).activityId;
  // Analytics reads the scored events on its own: wait until both calls show their scores.
  await waitFor('both calls to be scored in the list', async () => {
    const list = await listCalls();
    return list.data.length === 2 && list.data.every((row) => row.status === 'scored') ? true : undefined;
  });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

describe('GET /api/calls/', () => {
  it('answers the spec’s Call fields, newest first, as the evaluation scored them', async () => {
    const list = await listCalls();
    expect(list.pagination).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1 });
    expect(list.data.map((row) => row.id)).toEqual([calls[1]!.id, calls[0]!.id]);
    for (const { id, summary } of calls) {
      const row = list.data.find((call) => call.id === id)!;
      const evaluation = summary.evaluation!;
      expect(row).toMatchObject({
        representative: acme.representative.email,
        representativeName: 'Grace',
        score: evaluation.score,
        script_match: evaluation.scriptMatch,
        is_successful: evaluation.isSuccessful,
        criteriaNeedingReview: evaluation.criteriaNeedingReview,
        teamId: acme.teamId,
        media: 'text',
        status: 'scored',
      });
      const results = row.evaluation.flatMap((group) => group.criteria.map((criterion) => `${group.id}/${criterion.id}:${criterion.result}`)).sort();
      const verdicts = evaluation.verdicts.filter((verdict) => verdict.applicable).map((verdict) => `${verdict.groupId}/${verdict.criterionId}:${verdict.passed}`).sort();
      expect(results).toEqual(verdicts);
    }
    expect(list.data.find((row) => row.id === calls[1]!.id)!.audio_duration).toBe(65);
    expect(list.data.find((row) => row.id === calls[0]!.id)!.audio_date).toBe('2026-11-20T09:30:00.000Z');
  });

  it('narrows by score, success, criterion, duration, representative, ids and dates as each call was judged', async () => {
    const [good, poor] = calls;
    const scoreOf = (call: (typeof calls)[number]) => call.summary.evaluation!.score;
    expect(scoreOf(good!)).toBeGreaterThan(scoreOf(poor!));
    const threshold = scoreOf(good!);
    expect(idsOf(await listCalls(`&score=${encodeURIComponent(JSON.stringify({ value: threshold, operator: 'gte' }))}`))).toEqual([good!.id]);
    expect(idsOf(await listCalls(`&score=${encodeURIComponent(JSON.stringify({ value: threshold, operator: 'lte' }))}`))).toEqual([good!.id, poor!.id].sort());

    // A criterion the two calls were judged differently on filters for each verdict.
    const differing = good!.summary.evaluation!.verdicts.find((verdict) => {
      const other = poor!.summary.evaluation!.verdicts.find((candidate) => candidate.criterionId === verdict.criterionId);
      return verdict.applicable && other?.applicable && other.passed !== verdict.passed;
    });
    expect(differing, 'a criterion judged differently').toBeDefined();
    const criterion = (result: boolean) => `&criterion=${encodeURIComponent(JSON.stringify([{ criterionGroupId: differing!.groupId, criterionId: differing!.criterionId, result }]))}`;
    expect(idsOf(await listCalls(criterion(differing!.passed)))).toEqual([good!.id]);
    expect(idsOf(await listCalls(criterion(!differing!.passed)))).toEqual([poor!.id]);

    const successful = calls.filter((call) => call.summary.evaluation!.isSuccessful === true).map((call) => call.id);
    expect(idsOf(await listCalls('&success=true'))).toEqual(successful.sort());
    const toReview = calls.filter((call) => call.summary.evaluation!.criteriaNeedingReview > 0).map((call) => call.id);
    expect(idsOf(await listCalls('&needsReview=true'))).toEqual(toReview.sort());

    expect(idsOf(await listCalls(`&duration=${encodeURIComponent('{"value":60,"operator":"gte"}')}`))).toEqual([poor!.id]);
    expect(idsOf(await listCalls(`&callIds=${good!.id},%20${good!.id}`))).toEqual([good!.id]);
    expect(idsOf(await listCalls(`&representatives=${acme.representative.email.toUpperCase()}`))).toHaveLength(2);
    expect(idsOf(await listCalls('&representatives=nobody@example.com'))).toEqual([]);
    expect(idsOf(await listCalls('&startDate=2026-11-21&endDate=2026-11-21'))).toEqual([poor!.id]);
    expect(await listCalls('&limit=10&page=2')).toMatchObject({ data: [], pagination: { page: 2, limit: 10, total: 2, totalPages: 1 } });
    expect(idsOf(await listCalls('&department=sales'))).toHaveLength(2);
    expect(idsOf(await listCalls('&department=hr'))).toHaveLength(2); // a named team wins over the department
    const byDepartment = await acme.browser.get<ListOf<CallRow>>('/api/calls/?department=hr');
    expect(byDepartment.body.data).toEqual([]);
  });

  it('refuses a filter it cannot apply with a sentence naming it', async () => {
    for (const [query, message] of [
      ['limit=25', 'limit must be 10, 20, 50 or 100.'],
      ['page=0', 'page must be a whole number from 1.'],
      ['success=maybe', 'success must be true or false.'],
      ['needsReview=false', 'needsReview must be true (only activities with a criterion that needs review), or left out.'],
      ['score=8', 'score must be a JSON object {"value": a number, "operator": "lte", "eq" or "gte"}.'],
      ['startDate=2026-12-01&endDate=2026-11-01', 'endDate must not be before startDate.'],
    ] as const) {
      const response = await acme.browser.get(`/api/calls/?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body).toEqual({ error: message, message });
    }
  });

  it('shows another company none of these calls', async () => {
    expect((await globex.browser.get<ListOf<CallRow>>('/api/calls/')).body.data).toEqual([]);
    expect((await globex.browser.get<ListOf<CallRow>>(`/api/calls/?teamId=${acme.teamId}&callIds=${calls[0]!.id}`)).body.data).toEqual([]);
  });
});

describe('GET /api/meetings', () => {
  it('carries the transcript, summary and improvements in the record, with repeated parameters', async () => {
    const meeting = await waitFor('the meeting to be scored in the list', async () => {
      const response = await acme.browser.get<ListOf<MeetingRow>>(`/api/meetings?teamIds=${acme.teamId}&teamIds=other&meetingIds=${meetingId}`);
      const row = response.body.data[0];
      return row?.status === 'scored' ? row : undefined;
    });
    const summary = (await acme.browser.get<CallSummary>(`/api/meetings/summary/${meetingId}`)).body;
    expect(meeting).toMatchObject({
      id: meetingId,
      rep_email: acme.representative.email,
      title: 'pilot-review',
      duration: 240,
      score: summary.evaluation!.score,
      criteriaNeedingReview: summary.evaluation!.criteriaNeedingReview,
    });
    const toReview = await acme.browser.get<ListOf<MeetingRow>>(`/api/meetings?teamIds=${acme.teamId}&meetingIds=${meetingId}&needsReview=true`);
    expect(toReview.body.data.map((row) => row.id)).toEqual(summary.evaluation!.criteriaNeedingReview > 0 ? [meetingId] : []);
    expect(meeting.transcript.split('\n')[0]).toBe('[0:00] Grace: Good morning everyone, thank you for joining. My name is Grace.');
    expect(meeting.summary.summary).toBe(summary.summary);
    expect(meeting.summary.improvements.map((group) => group.id)).toEqual(summary.improvements.map((group) => group.id));
    expect((await acme.browser.get<ListOf<MeetingRow>>(`/api/calls/?callIds=${meetingId}`)).body.data).toEqual([]);
  });
});

describe('share and feedback', () => {
  it('e-mails the summary and improvements without the transcript', async () => {
    const [good] = calls;
    const recipient = `reader.${Date.now()}@example.com`;
    const refused = await acme.browser.post(`/api/calls/share/${good!.id}`, { email: 'not-an-address' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'Please enter a valid email address' });
    const shared = await acme.browser.post(`/api/calls/share/${good!.id}`, { email: recipient });
    expect(shared.status, JSON.stringify(shared.body)).toBe(200);
    expect(shared.body).toEqual({ success: true, message: `Summary shared with ${recipient}.` });
    const mail = await stack.mailTo(recipient);
    expect(mail.text).toContain(good!.summary.summary);
    // The transcript stays in Parlance: no timed lines, no speaker turns.
    expect(mail.text).not.toMatch(/\[\d+:\d\d/);
    expect(mail.text).not.toContain('Morgan: ');
    expect(mail.subject).toBe('Call summary: good-call.txt (2026-11-20)');
    expect(mail.html).toContain('Areas for Improvement');
    expect((await globex.browser.post(`/api/calls/share/${good!.id}`, { email: recipient })).status).toBe(404);
    expect((await acme.browser.post(`/api/meetings/share/${good!.id}`, { email: recipient })).status).toBe(404);
  });

  it('keeps a report for the company’s admins', async () => {
    const [good] = calls;
    expect((await acme.browser.post(`/api/calls/feedback/${good!.id}`, { description: '   ' })).status).toBe(400);
    expect((await acme.browser.post(`/api/calls/feedback/${good!.id}`, { description: 'x'.repeat(1001) })).status).toBe(400);
    const sent = await acme.browser.post(`/api/calls/feedback/${good!.id}`, { description: 'The greeting was there but was marked as missing.' });
    expect(sent.body).toEqual({ success: true, message: 'Feedback submitted successfully' });
    expect((await globex.browser.post(`/api/calls/feedback/${good!.id}`, { description: 'Not mine.' })).status).toBe(404);
    const reports = await acme.browser.get<{ data: Array<{ activityId: string; activityType: string; description: string; activityName: string }> }>('/api/feedback');
    expect(reports.status).toBe(200);
    expect(reports.body.data).toEqual([
      expect.objectContaining({ activityId: good!.id, activityType: 'call', activityName: 'good-call.txt', description: 'The greeting was there but was marked as missing.' }),
    ]);
    expect((await globex.browser.get<{ data: unknown[] }>('/api/feedback')).body.data).toEqual([]);
  });
});

describe('the dashboard calls (issue 15)', () => {
  const november = 'from=2026-11-01&to=2026-11-30';
  const scoredCalls = async () => (await listCalls()).data;

  it('ranks the representative on the leaderboard, counting days in the caller’s zone', async () => {
    const rows = await scoredCalls();
    const response = await acme.browser.get<Array<Record<string, unknown>>>(`/api/dashboard/leaderboard?teamIds=${acme.teamId}&${november}&activityType=calls&timezone=Europe/Kiev`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const successful = rows.filter((row) => row.is_successful === true).length;
    const scores = rows.map((row) => row.score!);
    expect(response.body).toEqual([
      {
        team_id: acme.teamId,
        representative_name: `${acme.representative.first_name} ${acme.representative.last_name}`,
        representative_email: acme.representative.email,
        total_activities: 2,
        successful_activities: successful,
        success_rate: (successful / 2) * 100,
        average_score: Math.round(((scores[0]! + scores[1]!) / 2) * 100) / 100,
      },
    ]);
    // Before the calls, nothing.
    expect((await acme.browser.get(`/api/dashboard/leaderboard?teamIds=${acme.teamId}&from=2026-10-01&to=2026-10-31`)).body).toEqual([]);
  });

  it('answers metrics, performance by week and by criterion, the analytics rows, recommendations and coaching', async () => {
    const metrics = await acme.browser.get<{ current: { avgActivitiesPerRep: number; avgDuration: number }; previousPeriod: { from: string } }>(
      `/api/dashboard/metrics?teamIds=${acme.teamId}&${november}&mode=representative&timezone=UTC`,
    );
    expect(metrics.status, JSON.stringify(metrics.body)).toBe(200);
    expect(metrics.body.current.avgActivitiesPerRep).toBe(2);
    expect(metrics.body.previousPeriod.from).toBe('2026-10-02');

    const weekly = await acme.browser.get<{ labels: string[]; datasets: Array<{ data: Array<number | null>; key: string }> }>(
      `/api/dashboard/performance?mode=team&teamIds=${acme.teamId}&from=2026-11-16&to=2026-11-29&groupBy=week&metrics=total_calls&timezone=UTC`,
    );
    expect(weekly.body).toMatchObject({ labels: ['2026-11-16', '2026-11-23'], datasets: [{ key: acme.teamId, data: [2, 0] }] });

    const criteria = await acme.browser.get<{ labels: string[]; datasets: Array<{ data: Array<number | null> }> }>(
      `/api/dashboard/performance?mode=team&teamIds=${acme.teamId}&${november}&groupBy=parameter&metrics=total_calls`,
    );
    expect(criteria.status, JSON.stringify(criteria.body)).toBe(200);
    expect(criteria.body.labels.length).toBeGreaterThan(0);
    for (const value of criteria.body.datasets[0]!.data) expect(value === null || (value >= 0 && value <= 100)).toBe(true);

    const analytics = await acme.browser.get<{ rows: Array<Record<string, unknown>>; colors: Record<string, string> }>(
      `/api/dashboard/analytics?mode=team&teamIds=${acme.teamId}&from=2026-11-20&to=2026-11-21&groupBy=day&metrics=total_calls`,
    );
    const [series] = Object.keys(analytics.body.colors);
    expect(analytics.body.rows).toEqual([
      { label: '2026-11-20', [series!]: 1 },
      { label: '2026-11-21', [series!]: 1 },
    ]);

    const groups = [{ id: 1, name: 'November', selectedMode: 'team', selectedTeams: [acme.teamId], selectedMembers: [], dateRangeType: 'custom', fromDate: '2026-11-16', toDate: '2026-11-20' }];
    const recommendations = await acme.browser.get<Array<{ teams: Array<{ target: number; members: Array<{ email: string; target: number; totalCalls: number }> }> }>>(
      `/api/dashboard/recommendations?filterGroups=${encodeURIComponent(JSON.stringify(groups))}&activityType=calls&timezone=UTC`,
    );
    expect(recommendations.status, JSON.stringify(recommendations.body)).toBe(200);
    // A target of 4 a day over five working days; the call of the 20th is in, the 21st's is not.
    expect(recommendations.body[0]!.teams[0]!.members).toEqual([expect.objectContaining({ email: acme.representative.email, target: 20, totalCalls: 1 })]);

    const coaching = await acme.browser.get<{ email: string; teamIds: string[] }>(`/api/dashboard/representatives/${encodeURIComponent(acme.representative.email)}?${november}`);
    expect(coaching.body).toMatchObject({ email: acme.representative.email, teamIds: [acme.teamId] });
  });

  it('refuses what it cannot read with a sentence naming it', async () => {
    const refused = async (path: string, sentence: string) => {
      const response = await acme.browser.get<{ error: string }>(path);
      expect(response.status, path).toBe(400);
      expect(response.body.error).toContain(sentence);
    };
    await refused('/api/dashboard/leaderboard?timezone=Mars/Olympus', 'Unknown time zone: Mars/Olympus.');
    await refused('/api/dashboard/performance?groupBy=year', 'groupBy must be day, week, month or parameter.');
    await refused('/api/dashboard/performance?metrics=revenue', 'Unknown metric: revenue.');
    await refused('/api/dashboard/metrics?activityType=emails', 'activityType must be calls or meetings.');
    await refused('/api/dashboard/metrics?from=2026-11-30&to=2026-11-01', 'to must not be before from.');
    await refused('/api/dashboard/recommendations?filterGroups=nope', 'filterGroups must be a JSON list');
    await refused(`/api/dashboard/recommendations?filterGroups=${encodeURIComponent('[{"selectedTeams":[],"fromDate":"2026-11-01"}]')}`, 'filterGroups[0] needs both fromDate and toDate.');
    expect((await acme.browser.get('/api/dashboard/representatives/nobody%40example.com')).status).toBe(404);
  });

  it('shows another company none of these figures, even when it names the team', async () => {
    const leaderboard = await globex.browser.get<unknown[]>(`/api/dashboard/leaderboard?teamIds=${acme.teamId}&companyId=${acme.companyId}`);
    expect(leaderboard).toMatchObject({ status: 200, body: [] });
    const coaching = await globex.browser.get(`/api/dashboard/representatives/${encodeURIComponent(acme.representative.email)}`);
    expect(coaching.status).toBe(404);
    const signedOut = new (acme.browser.constructor as new (baseUrl: string) => typeof acme.browser)(acme.browser.baseUrl);
    expect((await signedOut.get('/api/dashboard/metrics')).status).toBe(401);
  });
});

describe('DELETE /api/calls/{id}', () => {
  it('takes the call out of the list', async () => {
    const [, poor] = calls;
    expect((await acme.browser.delete(`/api/calls/${poor!.id}`)).status).toBe(200);
    await waitFor('the deleted call to leave the list', async () => (idsOf(await listCalls()).includes(poor!.id) ? undefined : true));
    expect((await acme.browser.get(`/api/calls/summary/${poor!.id}`)).status).toBe(404);
  });
});
