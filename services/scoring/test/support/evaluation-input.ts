/**
 * Activities to evaluate in tests of scoring's evaluation engines: a short sales call of Anna
 * (representative) with John (contact), a team with three weighted criteria in two groups and a
 * success prompt, and long calls made of as many numbered lines as a test needs.
 */
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import { SpeakerRole, type Segment, type Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import type { EvaluationInput, TeamSnapshot } from '../../src/engines/evaluation-engine.js';
import { DEFAULT_REVIEW_THRESHOLD } from '../../src/domain/review.js';

export const SAMPLE_TEAM: TeamSnapshot = {
  id: 'team-inbound',
  version: 3,
  name: 'Inbound sales',
  department: 'sales',
  criteriaGroups: [
    {
      id: 'group-opening',
      name: 'Opening',
      criteria: [{ id: 'crit-greeting', name: 'Greeting', prompt: 'The representative says "Welcome to Acme". Pass if said at the start. Fail if not.', weight: 3 }],
    },
    {
      id: 'group-discovery',
      name: 'Discovery',
      criteria: [
        { id: 'crit-needs', name: 'Asks about needs', prompt: 'The representative asks what the customer needs. Pass if asked. Fail if not.', weight: 4 },
        { id: 'crit-next-step', name: 'Next step', prompt: 'The representative agrees a next step with a date. Pass if agreed. Fail if not.', weight: 3 },
      ],
    },
  ],
  successPrompt: 'The customer agrees to a demo.',
  callScript: '',
  reviewThreshold: DEFAULT_REVIEW_THRESHOLD,
};

const segment = (speaker: string, startMs: number | undefined, text: string): Segment => ({ speaker, startMs, endMs: startMs === undefined ? undefined : startMs + 4_000, text, words: [] });

export const SAMPLE_SEGMENTS: Segment[] = [
  segment('Anna Lee', 0, 'Hello, welcome to Acme, this is Anna speaking.'),
  segment('John', 4_000, 'Hi Anna, I am calling about your analytics plan.'),
  segment('Anna Lee', 9_000, 'Great. What do you   need the analytics for?'),
  segment('John', 14_000, 'We need weekly reports for our sales team.'),
  segment('Anna Lee', 20_000, 'Then let us book a demo for Tuesday at ten.'),
  segment('John', 26_000, 'Tuesday works. See you then.'),
];

export function sampleTranscript(segments: Segment[] = SAMPLE_SEGMENTS): Transcript {
  return {
    activityId: 'activity-1',
    kind: ActivityKind.ACTIVITY_KIND_CALL,
    sourceFormat: 'speaker-lines',
    engine: 'text',
    durationMs: 30_000,
    speakers: [
      { label: 'Anna Lee', role: SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE },
      { label: 'John', role: SpeakerRole.SPEAKER_ROLE_CONTACT },
    ],
    segments,
    warnings: [],
  };
}

export function sampleInput(overrides: { team?: Partial<TeamSnapshot>; segments?: Segment[] } = {}): EvaluationInput {
  return {
    activityId: 'activity-1',
    kind: 'call',
    transcript: sampleTranscript(overrides.segments),
    team: { ...SAMPLE_TEAM, ...overrides.team },
    representative: { email: 'anna@acme.test', name: 'Anna Lee' },
  };
}

/** A long call: `count` segments, Anna and John taking turns, each line about `wordsEach` words naming its own number. */
export function longSegments(count: number, wordsEach = 30): Segment[] {
  const filler = 'and we went through the reports the dashboards the exports the alerts and the pricing of every plan in detail'.split(' ');
  return Array.from({ length: count }, (_, index) => {
    const words = [`Line ${index} here,`, ...Array.from({ length: wordsEach }, (__, word) => filler[(index + word) % filler.length]!)];
    return segment(index % 2 === 0 ? 'Anna Lee' : 'John', index * 10_000, `${words.join(' ')}.`);
  });
}
