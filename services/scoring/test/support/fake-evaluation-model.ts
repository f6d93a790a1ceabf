/**
 * Plays the model for scoring's chat evaluation engine (services/scoring/src/engines/chat) behind
 * the stand-in Chat Completions server (test/support/fake-openai.ts). It is not a language model: it reads the
 * request as a model would (the criteria in the briefing, the transcript lines or the parts'
 * findings in the user message, the schema name in `response_format`) and answers with JSON that
 * matches the request's schema: by default every criterion passed or met, quoting the first
 * representative line it was shown. Tests steer verdicts, success and summary through a script.
 */
import { jsonSchemaOf, type ChatCompletionRequest } from '../../../../test/support/fake-openai.js';
import { FINDINGS_SCHEMA_NAME } from '../../src/engines/chat/evaluation-requests.js';

export type RequestKind = 'evaluation' | 'part' | 'combine' | 'merge';

export interface SentLine {
  segmentIndex: number;
  /** "2/3" for a piece of a segment split for length. */
  piece: string | undefined;
  time: string | undefined;
  speaker: string;
  role: string;
  text: string;
}

export interface Quote {
  segmentIndex: number;
  quote: string;
}

export interface CriterionRef {
  groupId: string;
  criterionId: string;
}

/** What a model would take from one request. */
export interface ReadRequest {
  kind: RequestKind;
  schemaName: string;
  criteria: CriterionRef[];
  successPrompt: string | undefined;
  /** The transcript lines sent (evaluation and part requests). */
  lines: SentLine[];
  /** The quotes the findings cite, by criterion id (combine and merge requests). */
  findingsQuotes: Map<string, Quote[]>;
  /** The statuses the findings report, by criterion id, in order. */
  findingsStatuses: Map<string, string[]>;
}

const JSON_STRING = String.raw`"(?:[^"\\]|\\.)*"`;

export function readRequest(request: ChatCompletionRequest): ReadRequest {
  const schemaName = jsonSchemaOf(request)?.name ?? '';
  const user = request.messages.filter((message) => message.role === 'user')[0]?.content ?? '';
  const criteria: CriterionRef[] = [];
  let groupId = '';
  for (const line of user.split('\n')) {
    const group = new RegExp(`^Group .* \\(groupId (${JSON_STRING})\\):$`).exec(line);
    if (group) groupId = JSON.parse(group[1]!) as string;
    const criterion = new RegExp(`^- criterionId (${JSON_STRING}), `).exec(line);
    if (criterion) criteria.push({ groupId, criterionId: JSON.parse(criterion[1]!) as string });
  }
  const successLine = /^Success prompt: (.*)$/m.exec(user)?.[1];
  const successPrompt = successLine && !successLine.startsWith('none (') ? successLine : undefined;

  const transcript = /<transcript>\n([\s\S]*?)\n?<\/transcript>/.exec(user)?.[1] ?? '';
  const lines = transcript
    .split('\n')
    .filter(Boolean)
    .map((line): SentLine => {
      const match = /^\[(\d+)(?: piece (\d+\/\d+))?\](?: (\d+(?::\d\d)+))? (.*?) \((representative|contact|role unknown)\): (.*)$/.exec(line);
      if (!match) throw new Error(`fake model: cannot read the transcript line ${JSON.stringify(line)}`);
      return { segmentIndex: Number(match[1]), piece: match[2], time: match[3], speaker: match[4]!, role: match[5]!, text: match[6]! };
    });

  const findingsText = /<findings>\n([\s\S]*?)\n?<\/findings>/.exec(user)?.[1];
  const findingsQuotes = new Map<string, Quote[]>();
  const findingsStatuses = new Map<string, string[]>();
  for (const line of findingsText?.split('\n') ?? []) {
    const observation = new RegExp(`^- groupId ${JSON_STRING}, criterionId (${JSON_STRING}): ([a-z ]+)\\.`).exec(line);
    if (!observation) continue;
    const id = JSON.parse(observation[1]!) as string;
    findingsStatuses.set(id, [...(findingsStatuses.get(id) ?? []), observation[2]!]);
    const quotes = [...line.matchAll(new RegExp(`\\[(\\d+)\\] (${JSON_STRING})`, 'g'))].map((each) => ({ segmentIndex: Number(each[1]), quote: JSON.parse(each[2]!) as string }));
    findingsQuotes.set(id, [...(findingsQuotes.get(id) ?? []), ...quotes]);
  }

  const findingsSchema = schemaName === FINDINGS_SCHEMA_NAME;
  const kind: RequestKind = findingsText === undefined ? (findingsSchema ? 'part' : 'evaluation') : findingsSchema ? 'merge' : 'combine';
  return { kind, schemaName, criteria, successPrompt, lines, findingsQuotes, findingsStatuses };
}

/** The first words of a text: a quote that is a true substring of it. */
function opening(text: string, words = 6): string {
  return text.split(' ').slice(0, words).join(' ');
}

export interface VerdictScript {
  passed?: boolean;
  applicable?: boolean;
  confidence?: number;
  reason?: string;
  expected?: string;
  suggestion?: string;
  evidence?: Quote[];
}

export interface EvaluationModelScript {
  /** A verdict's fields in evaluation and combine answers; the rest default to a pass. */
  verdict?: (criterion: CriterionRef, read: ReadRequest) => VerdictScript | undefined;
  /** A part's observation status for a criterion; default "met". */
  observation?: (criterion: CriterionRef, read: ReadRequest) => { status?: string; evidence?: Quote[] } | undefined;
  success?: { isSuccessful: boolean | null; reason?: string; confidence?: number; evidence?: Quote[] };
  summary?: { text?: string; participants?: string[]; discussion?: string; outcome?: string; nextSteps?: string[] };
}

/** An answer to the request that matches its schema, as the script says. */
export function answerEvaluationRequest(request: ChatCompletionRequest, script: EvaluationModelScript = {}): Record<string, unknown> {
  const read = readRequest(request);
  const representative = read.lines.find((line) => line.role === 'representative') ?? read.lines[0];
  const shownQuote = representative ? [{ segmentIndex: representative.segmentIndex, quote: opening(representative.text) }] : [];
  const participants = [...new Set(read.lines.map((line) => `${line.speaker} (${line.role})`))];

  if (read.kind === 'part' || read.kind === 'merge') {
    return {
      observations: read.criteria.map((criterion) => {
        const scripted = script.observation?.(criterion, read) ?? {};
        const evidence = scripted.evidence ?? (read.kind === 'merge' ? (read.findingsQuotes.get(criterion.criterionId) ?? []).slice(0, 3) : shownQuote);
        return { ...criterion, evidence, reason: 'What this part shows.', status: scripted.status ?? 'met' };
      }),
      success: { evidence: [], reason: read.successPrompt ? 'Signs of success here.' : '', leaning: read.successPrompt ? 'successful' : 'unclear' },
      summary: { participants, discussion: `Part with ${read.lines.length} lines.`, outcome: 'Ongoing.', nextSteps: [] },
    };
  }

  return {
    verdicts: read.criteria.map((criterion) => {
      const scripted = script.verdict?.(criterion, read) ?? {};
      const passed = scripted.passed ?? true;
      const evidence = scripted.evidence ?? (read.kind === 'combine' ? (read.findingsQuotes.get(criterion.criterionId) ?? []).slice(0, 1) : shownQuote);
      return {
        ...criterion,
        evidence,
        reason: scripted.reason ?? (passed ? 'The representative did what the criterion asks.' : 'The representative did not do it.'),
        applicable: scripted.applicable ?? true,
        passed,
        confidence: scripted.confidence ?? 0.9,
        expected: scripted.expected ?? (passed ? '' : 'Do what the criterion asks.'),
        suggestion: scripted.suggestion ?? (passed ? '' : 'Next time, do it when the moment comes.'),
      };
    }),
    success: {
      evidence: script.success?.evidence ?? [],
      reason: script.success?.reason ?? (read.successPrompt ? 'The contact agreed to the next step.' : ''),
      isSuccessful: script.success ? script.success.isSuccessful : read.successPrompt ? true : null,
      confidence: script.success?.confidence ?? (read.successPrompt ? 0.8 : 0),
    },
    summary: {
      participants: script.summary?.participants ?? participants,
      discussion: script.summary?.discussion ?? 'They talked.',
      outcome: script.summary?.outcome ?? 'A demo was booked.',
      nextSteps: script.summary?.nextSteps ?? ['Anna sends the offer.'],
      text: script.summary?.text ?? 'Anna and John talked; a demo was booked.',
    },
  };
}
