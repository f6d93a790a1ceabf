import { describe, expect, it } from 'vitest';
import { csvField, isoDay, summaryCsvRows, summaryFileName, toCsv } from './summary-csv';
import { makeEvaluation, makeSummary } from './summary-test-fixtures';

describe('csv fields', () => {
  it('leaves plain text as it is', () => {
    expect(csvField('Greeting')).toBe('Greeting');
    expect(csvField('')).toBe('');
  });

  it('quotes fields holding a comma, a quote or a line break, doubling the quotes (RFC 4180)', () => {
    expect(csvField('Hello, Ada')).toBe('"Hello, Ada"');
    expect(csvField('She said "yes"')).toBe('"She said ""yes"""');
    expect(csvField('line one\nline two')).toBe('"line one\nline two"');
    expect(csvField('carriage\r\nreturn')).toBe('"carriage\r\nreturn"');
  });

  it('prefixes an apostrophe to cells a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`);
    expect(csvField('+1 555')).toBe("'+1 555");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tcmd')).toBe("'\tcmd");
    expect(csvField('a=b')).toBe('a=b');
  });

  it('writes the header, then one CRLF-terminated line per row', () => {
    expect(toCsv([['Summary', 'Overall', 'Summary', 'Fine, thanks']])).toBe('Section,Category,Item,Content\r\nSummary,Overall,Summary,"Fine, thanks"\r\n');
  });
});

describe('export file name', () => {
  it('names call and meeting exports with the id and the local date', () => {
    const day = new Date(2025, 0, 7, 23, 59);
    expect(isoDay(day)).toBe('2025-01-07');
    expect(summaryFileName('call', 'call-1', day)).toBe('call-summary-call-1-2025-01-07.csv');
    expect(summaryFileName('meeting', 'm-9', new Date(2024, 11, 31))).toBe('meeting-summary-m-9-2024-12-31.csv');
  });
});

describe('export rows', () => {
  it('lists the summary, each improvement, each verdict and the score', () => {
    const summary = makeSummary();
    const rows = summaryCsvRows({ summary: summary.summary, improvements: summary.improvements, evaluation: summary.evaluation });
    expect(rows).toEqual([
      ['Summary', 'Overall', 'Summary', 'Ada introduced the product and Charles asked for a demo.'],
      ['Summary', 'Details', 'Participants', 'Ada, Charles'],
      ['Improvement', 'Closing', 'Next steps', 'Agree on a follow-up date.'],
      ['Verdict', 'Opening', 'Greeting', 'Passed — The representative greeted the contact.'],
      ['Verdict', 'Closing', 'Next steps', 'Failed — No follow-up date was agreed.'],
      ['Statistics', 'Overall', 'Score', '6'],
      ['Statistics', 'Overall', 'Script Match', '70%'],
      ['Statistics', 'Overall', 'Successful', 'Yes — A demo was booked.'],
    ]);
  });

  it('says which verdicts need review, the side each leans to, and how many there are', () => {
    const evaluation = makeEvaluation({ criteriaNeedingReview: 1 });
    evaluation.verdicts[1] = { ...evaluation.verdicts[1]!, needsReview: true };
    const rows = summaryCsvRows({ summary: '', improvements: [], evaluation });
    expect(rows).toContainEqual(['Verdict', 'Closing', 'Next steps', 'Needs review (leans to failed) — No follow-up date was agreed.']);
    expect(rows).toContainEqual(['Statistics', 'Overall', 'Criteria Needing Review', '1']);
  });

  it('says when the success verdict needs review, and the side it leans to', () => {
    const evaluation = makeEvaluation({ isSuccessful: false, successConfidence: 0.55, successNeedsReview: true, successReason: 'The contact did not agree to a demo.' });
    const rows = summaryCsvRows({ summary: '', improvements: [], evaluation });
    expect(rows).toContainEqual(['Statistics', 'Overall', 'Successful', 'Needs review (leans to no) — The contact did not agree to a demo.']);
  });

  it('adds per-speaker statistics when the evaluation has them', () => {
    const evaluation = makeEvaluation({
      verdicts: [],
      scriptMatch: null,
      isSuccessful: null,
      successReason: '',
      statistics: {
        speakers: [
          {
            speaker: 'Ada',
            role: 'representative',
            words: 120,
            talkMs: 60000,
            talkShare: 0.6,
            questions: 3,
            longestMonologueMs: 20000,
            longestMonologueWords: 40,
            interruptions: 1,
            fillerWords: 2,
            fillerRate: 1.7,
            wordsPerMinute: 119.6,
          },
        ],
        durationMs: 100000,
        timed: true,
        wordTimings: false,
        representativeTalkShare: 0.6,
        longestMonologueSpeaker: 'Ada',
        longestMonologueMs: 20000,
        longestMonologueWords: 40,
      },
    });
    const rows = summaryCsvRows({ summary: '', improvements: [], evaluation });
    expect(rows).toContainEqual(['Statistics', 'Overall', 'Successful', 'N/A']);
    expect(rows).toContainEqual(['Statistics', 'Overall', 'Duration', '100s']);
    expect(rows).toContainEqual(['Statistics', 'Ada (representative)', 'Talk Share', '60%']);
    expect(rows).toContainEqual(['Statistics', 'Ada (representative)', 'Words per Minute', '120']);
    expect(rows.some((row) => row[2] === 'Script Match')).toBe(false);
  });

  it('holds only the summary row when nothing was analysed', () => {
    expect(summaryCsvRows({ summary: '', improvements: [], evaluation: null })).toEqual([['Summary', 'Overall', 'Summary', '']]);
  });
});
