/**
 * Demo data that tells the truth: the offline evaluator (what the standalone product scores with)
 * reads the generated conversations and should find what the generator put in them, criterion by
 * criterion and for success. Measured on a few hundred conversations of every demo team; a
 * disagreement rate above the bounds means either the playbooks' wording or the evaluator drifted.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_TEAMS } from '@parlance/identity/demo-teams';
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import { SpeakerRole } from '@parlance/proto/parlance/transcription/v1/transcription';
import { judgeOffline } from '@parlance/scoring/offline/offline-engine';
import type { TeamSnapshot } from '@parlance/scoring/engines/evaluation-engine';
import { demoActivity, type DemoPlan, type DemoTeam } from '../src/domain/demo-conversations.js';

const teams: DemoTeam[] = DEMO_TEAMS.map((demo, index) => ({
  id: `team-${index}`,
  name: demo.team.name,
  department: demo.team.department,
  members: demo.members.map(({ firstName, lastName, email }) => ({ firstName, lastName, email })),
}));

const snapshots = new Map<string, TeamSnapshot>(
  DEMO_TEAMS.map((demo, index) => [
    `team-${index}`,
    {
      id: `team-${index}`,
      version: 1,
      name: demo.team.name,
      department: demo.team.department,
      successPrompt: demo.team.successPrompt,
      callScript: demo.team.callScript ?? '',
      criteriaGroups: (demo.team.criteriaGroups ?? []).map((group) => ({
        id: group.id,
        name: group.name,
        criteria: group.criteria.map((criterion) => ({ id: criterion.id, name: criterion.name, prompt: criterion.prompt, weight: Number(criterion.weightText) })),
      })),
    },
  ]),
);

const plan: DemoPlan = { calls: 540, meetings: 60, recordedCalls: 0, seed: 26, now: new Date('2026-11-23T12:00:00Z') };

describe('demo conversations read by the offline evaluator', () => {
  it('agree with the truth the generator kept, per criterion and for success', () => {
    const criteria = new Map<string, { agree: number; total: number }>();
    let successAgree = 0;
    let judged = 0;
    for (let sequence = 0; sequence < plan.calls + plan.meetings; sequence += 1) {
      const activity = demoActivity(plan, teams, sequence)!;
      const team = snapshots.get(activity.teamId)!;
      const judgement = judgeOffline({
        activityId: `activity-${sequence}`,
        kind: activity.kind,
        team,
        representative: { email: activity.representative.email, name: activity.representative.firstName },
        transcript: {
          activityId: `activity-${sequence}`,
          kind: activity.kind === 'meeting' ? ActivityKind.ACTIVITY_KIND_MEETING : ActivityKind.ACTIVITY_KIND_CALL,
          sourceFormat: 'timestamped-lines',
          engine: 'text',
          durationMs: activity.lines.at(-1)?.endMs ?? 0,
          speakers: [...new Set(activity.lines.map((line) => line.speaker))].map((label) => ({
            label,
            role: label === activity.representative.fullName ? SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE : SpeakerRole.SPEAKER_ROLE_CONTACT,
          })),
          segments: activity.lines.map((line) => ({ speaker: line.speaker, startMs: line.startMs, endMs: line.endMs, text: line.text, words: [] })),
          warnings: [],
        },
      });
      const names = new Map(team.criteriaGroups.flatMap((group) => group.criteria.map((criterion) => [criterion.id, criterion.name] as const)));
      for (const verdict of judgement.verdicts) {
        const name = `${team.name} / ${names.get(verdict.criterionId)}`;
        const met = activity.truth.met.includes(names.get(verdict.criterionId)!);
        const entry = criteria.get(name) ?? { agree: 0, total: 0 };
        entry.total += 1;
        if (verdict.passed === met) entry.agree += 1;
        criteria.set(name, entry);
      }
      judged += 1;
      if (judgement.success.isSuccessful === activity.truth.successful) successAgree += 1;
    }
    const rates = Object.fromEntries([...criteria].map(([name, { agree, total }]) => [name, Number((agree / total).toFixed(3))]));
    const overall = [...criteria.values()].reduce((sum, { agree }) => sum + agree, 0) / [...criteria.values()].reduce((sum, { total }) => sum + total, 0);
    // The figures, for whoever changes the playbooks or the evaluator.
    process.stdout.write(`${JSON.stringify({ judged, overall: Number(overall.toFixed(3)), success: Number((successAgree / judged).toFixed(3)), rates }, null, 1)}\n`);
    expect(overall).toBeGreaterThan(0.9);
    expect(successAgree / judged).toBeGreaterThan(0.85);
    for (const [name, rate] of Object.entries(rates)) expect(rate, name).toBeGreaterThan(0.75);
  });
});
