import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { jsonResponse } from '../../../testing/json-response';
import { deferred } from '../../../testing/deferred';
import { stubGateway } from '../../../testing/stub-gateway';
import { makeCall } from '../activity-test-fixtures';
import { CallSummaryDialog } from './call-summary-dialog';
import type { SummaryEvaluation } from './summary-model';
import { makeEvaluation, makeSummary, renderSignedIn } from './summary-test-fixtures';

const summaryPath = '/api/calls/summary/call-1';

let scrollIntoView: ReturnType<typeof vi.fn>;
let play: ReturnType<typeof vi.fn<() => Promise<void>>>;

beforeEach(() => {
  scrollIntoView = vi.fn();
  Element.prototype.scrollIntoView = scrollIntoView as unknown as Element['scrollIntoView'];
  play = vi.fn(() => Promise.resolve());
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(play);
});

afterEach(() => {
  vi.restoreAllMocks();
  delete (Element.prototype as Partial<Element>).scrollIntoView;
});

const dialog = () => screen.getByRole('dialog', { name: 'Call Summary and Analysis' });

/** Conversation statistics naming these speakers (the figures do not matter here). */
function statisticsOf(speakers: [string, 'representative' | 'contact'][]): SummaryEvaluation['statistics'] {
  return {
    speakers: speakers.map(([speaker, role]) => ({
      speaker,
      role,
      words: 10,
      talkMs: 0,
      talkShare: 1 / speakers.length,
      questions: 1,
      longestMonologueMs: 0,
      longestMonologueWords: 5,
      interruptions: 0,
      fillerWords: 0,
      fillerRate: 0,
      wordsPerMinute: null,
    })),
    durationMs: 0,
    timed: false,
    wordTimings: false,
    representativeTalkShare: null,
    longestMonologueSpeaker: speakers[0]?.[0] ?? '',
    longestMonologueMs: 0,
    longestMonologueWords: 5,
  };
}

describe('call summary dialog', () => {
  it('is closed without a call', () => {
    stubGateway(() => undefined);
    renderSignedIn(<CallSummaryDialog call={null} onClose={() => {}} />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says Analyzing Call while loading, then shows the transcript beside the analysis', async () => {
    const answer = deferred<Response>();
    const api = stubGateway((_request, url) => (url.pathname === summaryPath ? answer.promise : undefined));
    renderSignedIn(<CallSummaryDialog call={makeCall()} onClose={() => {}} />);

    expect(within(dialog()).getByRole('status').textContent).toContain('Analyzing Call');
    answer.resolve(jsonResponse(makeSummary()));

    const transcript = await screen.findByRole('region', { name: 'Transcript' });
    expect(screen.queryByText('Analyzing Call')).toBeNull();
    expect(api.sent('GET', summaryPath)).toHaveLength(1);
    const segments = within(transcript).getAllByRole('listitem');
    expect(segments).toHaveLength(4);
    expect(segments[2]?.textContent).toContain('Charles');
    expect(segments[2]?.textContent).toContain('Contact');
    expect(segments[2]?.textContent).toContain('0:20');
    expect(segments[2]?.textContent).toContain('I would like to book a demo.');

    const analysis = screen.getByRole('region', { name: 'Analysis' });
    expect(within(analysis).getByText('Ada introduced the product and Charles asked for a demo.')).toBeTruthy();
    const improvements = within(analysis).getByRole('region', { name: 'Areas for Improvement' });
    expect(within(improvements).getByRole('heading', { name: 'Closing' })).toBeTruthy();
    expect(within(improvements).getByText('Next steps')).toBeTruthy();
    expect(within(improvements).getByText('Agree on a follow-up date.')).toBeTruthy();

    const criteria = within(analysis).getByRole('region', { name: 'Criteria' });
    const verdicts = within(criteria).getAllByRole('listitem').filter((item) => item.classList.contains('summary-verdict'));
    expect(verdicts.map((item) => item.querySelector('.badge')?.textContent)).toEqual(['Passed', 'Failed']);
    expect(verdicts[1]?.textContent).toContain('Confidence 80%');
    expect(verdicts[1]?.textContent).toContain('No follow-up date was agreed.');
    expect(verdicts[1]?.textContent).toContain('Expected: A date for the next conversation.');
    expect(verdicts[1]?.textContent).toContain('Suggestion: Agree on a follow-up date.');
    expect(within(verdicts[1] as HTMLElement).getByRole('button', { name: /talk soon/ })).toBeTruthy();

    expect(screen.getByText('1 improvement suggested')).toBeTruthy();
    for (const name of ['Report Issue', 'Share', 'Export']) expect(screen.getByRole('button', { name })).toBeTruthy();
    expect(within(dialog()).getAllByRole('button', { name: 'Close' })).toHaveLength(2);
  });

  it('shows each role once when the speakers are labelled by their roles, in the transcript and the statistics', async () => {
    const summary = makeSummary({
      segments: [
        { index: 0, speaker: 'Representative', role: 'representative', startMs: null, endMs: null, text: 'Thanks for calling.' },
        { index: 1, speaker: 'Customer', role: 'contact', startMs: null, endMs: null, text: 'Hi, my name is Zain.' },
        { index: 2, speaker: 'Contact', role: 'contact', startMs: null, endMs: null, text: 'And I am his colleague.' },
      ],
      evaluation: makeEvaluation({ statistics: statisticsOf([['Representative', 'representative'], ['Customer', 'contact'], ['Contact', 'contact']]) }),
    });
    stubGateway((_request, url) => (url.pathname === summaryPath ? jsonResponse(summary) : undefined));
    renderSignedIn(<CallSummaryDialog call={makeCall({ media: 'text' })} onClose={() => {}} />);

    const transcript = await screen.findByRole('region', { name: 'Transcript' });
    const metas = within(transcript)
      .getAllByRole('listitem')
      .map((item) => [...item.querySelectorAll('.summary-segment__meta > span')].map((span) => span.textContent));
    expect(metas).toEqual([['Representative'], ['Customer', 'Contact'], ['Contact']]);

    const table = within(screen.getByRole('region', { name: 'Conversation Statistics' })).getByRole('table');
    expect(within(table).getAllByRole('rowheader').map((cell) => cell.textContent)).toEqual(['Representative', 'Customer Contact', 'Contact']);
  });

  it('names the role beside a named speaker in the statistics', async () => {
    const evaluation = makeEvaluation({ statistics: statisticsOf([['Ada', 'representative'], ['Charles', 'contact']]) });
    stubGateway((_request, url) => (url.pathname === summaryPath ? jsonResponse(makeSummary({ evaluation })) : undefined));
    renderSignedIn(<CallSummaryDialog call={makeCall()} onClose={() => {}} />);

    const table = within(await screen.findByRole('region', { name: 'Conversation Statistics' })).getByRole('table');
    expect(within(table).getAllByRole('rowheader').map((cell) => cell.textContent)).toEqual(['Ada Representative', 'Charles Contact']);
  });

  it('shows the evaluation’s warnings above the analysis, as a note', async () => {
    const warnings = [
      'The recording has one channel, so the speakers were told apart by their voices; where they talk over each other the labels may be wrong.',
      'The team has no evaluation criteria, so nothing was scored: add criteria to the team to score its activities.',
    ];
    stubGateway((_request, url) => (url.pathname === summaryPath ? jsonResponse(makeSummary({ evaluation: makeEvaluation({ warnings }) })) : undefined));
    renderSignedIn(<CallSummaryDialog call={makeCall()} onClose={() => {}} />);

    const analysis = await screen.findByRole('region', { name: 'Analysis' });
    const note = within(analysis).getByRole('note', { name: 'Before you rely on this analysis' });
    expect(within(note).getAllByRole('listitem').map((item) => item.textContent)).toEqual(warnings);
    const summarySection = within(analysis).getByRole('region', { name: 'Summary' });
    expect(note.compareDocumentPosition(summarySection) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('marks a verdict the evaluator is unsure of as needing review, with the side it leans to and how the score counts it', async () => {
    const unsure = makeEvaluation();
    unsure.verdicts[1] = { ...unsure.verdicts[1]!, confidence: 0.55, needsReview: true };
    stubGateway((_request, url) => (url.pathname === summaryPath ? jsonResponse(makeSummary({ evaluation: { ...unsure, criteriaNeedingReview: 1 } })) : undefined));
    renderSignedIn(<CallSummaryDialog call={makeCall()} onClose={() => {}} />);

    const criteria = await screen.findByRole('region', { name: 'Criteria' });
    const verdicts = within(criteria).getAllByRole('listitem').filter((item) => item.classList.contains('summary-verdict'));
    expect(verdicts.map((item) => item.querySelector('.badge')?.textContent)).toEqual(['Passed', 'Needs review']);
    expect(verdicts[1]?.textContent).toContain('Leans to failed: the evaluator is not sure enough to decide; counted as failed in the score');
    expect(verdicts[1]?.textContent).toContain('Confidence 55%');
    expect(within(verdicts[1] as HTMLElement).getByRole('button', { name: /talk soon/ })).toBeTruthy();
    const outcome = screen.getByRole('region', { name: 'Outcome' });
    expect(outcome.textContent).toContain('6/10');
    expect(outcome.textContent).toContain('1 criterion needs review');
  });

  it('marks a success verdict the evaluator is unsure of as needing review, with the side it leans to', async () => {
    const unsure = makeEvaluation({ isSuccessful: false, successConfidence: 0.55, successNeedsReview: true, successReason: 'The contact did not agree to a demo.' });
    stubGateway((_request, url) => (url.pathname === summaryPath ? jsonResponse(makeSummary({ evaluation: unsure })) : undefined));
    renderSignedIn(<CallSummaryDialog call={makeCall()} onClose={() => {}} />);

    const outcome = await screen.findByRole('region', { name: 'Outcome' });
    const successful = within(outcome).getByText('Successful').closest('div')!;
    expect(successful.querySelector('.badge')?.textContent).toBe('Needs review');
    expect(outcome.textContent).toContain('Leans to not successful: the evaluator is 55% sure; counted as not successful until someone checks the evidence.');
    expect(outcome.textContent).toContain('The contact did not agree to a demo.');
  });

  it('shows no warning note when the evaluation has none', async () => {
    stubGateway((_request, url) => (url.pathname === summaryPath ? jsonResponse(makeSummary()) : undefined));
    renderSignedIn(<CallSummaryDialog call={makeCall()} onClose={() => {}} />);

    await screen.findByRole('region', { name: 'Criteria' });
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('shows a 5-second error toast when the summary cannot be loaded', async () => {
    stubGateway((_request, url) => (url.pathname === summaryPath ? jsonResponse({ error: 'boom' }, 500) : undefined));
    const { store } = renderSignedIn(<CallSummaryDialog call={makeCall()} onClose={() => {}} />);

    expect(await screen.findByText('Failed to load call summary. Please try again.')).toBeTruthy();
    expect(store.getState().toasts).toEqual([expect.objectContaining({ kind: 'error', text: 'Failed to load call summary. Please try again.', durationMs: 5000 })]);
    expect(screen.queryByText('Analyzing Call')).toBeNull();
    expect(screen.getByText('No Transcript Available')).toBeTruthy();
    expect(screen.getByText('No Content Available')).toBeTruthy();
  });

  it('says No Transcript Available and No Content Available for a call not yet transcribed', async () => {
    stubGateway((_request, url) => (url.pathname === summaryPath ? jsonResponse(makeSummary({ transcript: '', summary: '', improvements: [], segments: [], evaluation: null })) : undefined));
    renderSignedIn(<CallSummaryDialog call={makeCall({ status: 'processing' })} onClose={() => {}} />);

    expect(await screen.findByText('No Transcript Available')).toBeTruthy();
    expect(screen.getByText('No Content Available')).toBeTruthy();
    expect(screen.queryByText('Excellent Performance')).toBeNull();
    expect(screen.getByText('0 improvements suggested')).toBeTruthy();
  });

  it('says Excellent Performance when nothing needs improving', async () => {
    stubGateway((_request, url) => (url.pathname === summaryPath ? jsonResponse(makeSummary({ improvements: [] })) : undefined));
    renderSignedIn(<CallSummaryDialog call={makeCall()} onClose={() => {}} />);

    const improvements = await screen.findByRole('region', { name: 'Areas for Improvement' });
    expect(within(improvements).getByText('Excellent Performance')).toBeTruthy();
    expect(screen.getByText('0 improvements suggested')).toBeTruthy();
  });

  it('scrolls to, highlights and plays the moment a quote comes from', async () => {
    stubGateway((_request, url) => (url.pathname === summaryPath ? jsonResponse(makeSummary()) : undefined));
    renderSignedIn(<CallSummaryDialog call={makeCall()} onClose={() => {}} />);

    const audio = (await screen.findByLabelText('Call recording')) as HTMLAudioElement;
    expect(audio.getAttribute('src')).toBe('/api/calls/call-1/recording');
    expect(audio.controls).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: /talk soon/ }));

    const segment = document.querySelector('[data-segment-index="3"]') as HTMLElement;
    expect(scrollIntoView).toHaveBeenCalledTimes(1);
    expect(scrollIntoView.mock.contexts[0]).toBe(segment);
    expect(segment.classList.contains('summary-segment--active')).toBe(true);
    expect(segment.getAttribute('aria-current')).toBe('true');
    expect(segment.querySelector('mark')?.textContent).toBe('talk soon');
    expect(audio.currentTime).toBe(75.5);
    expect(play).toHaveBeenCalledTimes(1);

    // Another quote moves the highlight.
    fireEvent.click(screen.getByRole('button', { name: /book a demo/ }));
    expect(segment.getAttribute('aria-current')).toBeNull();
    expect(document.querySelector('[data-segment-index="2"]')?.getAttribute('aria-current')).toBe('true');
    expect(audio.currentTime).toBe(20);
  });

  it('ignores a recording the browser refuses to play', async () => {
    play.mockImplementation(() => Promise.reject(new DOMException('blocked', 'NotAllowedError')));
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    stubGateway((_request, url) => (url.pathname === summaryPath ? jsonResponse(makeSummary()) : undefined));
    renderSignedIn(<CallSummaryDialog call={makeCall()} onClose={() => {}} />);

    fireEvent.click(await screen.findByRole('button', { name: /Good morning/ }));
    await act(async () => new Promise((resolve) => setTimeout(resolve, 10)));
    process.off('unhandledRejection', unhandled);
    expect(play).toHaveBeenCalledTimes(1);
    expect(unhandled).not.toHaveBeenCalled();
    expect(document.querySelector('[data-segment-index="0"]')?.getAttribute('aria-current')).toBe('true');
  });

  it('has no player for a text call, and a quote still scrolls and highlights', async () => {
    stubGateway((_request, url) => (url.pathname === summaryPath ? jsonResponse(makeSummary()) : undefined));
    renderSignedIn(<CallSummaryDialog call={makeCall({ media: 'text' })} onClose={() => {}} />);

    fireEvent.click(await screen.findByRole('button', { name: /talk soon/ }));
    expect(document.querySelector('audio')).toBeNull();
    expect(play).not.toHaveBeenCalled();
    expect(document.querySelector('[data-segment-index="3"]')?.getAttribute('aria-current')).toBe('true');
  });

  it('exports the summary as call-summary-{id}-{date}.csv', async () => {
    stubGateway((_request, url) => (url.pathname === summaryPath ? jsonResponse(makeSummary()) : undefined));
    const blobs: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:summary';
    });
    const revokeObjectURL = vi.fn();
    // jsdom has no object URLs; these stand in for the test and are removed after it.
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    onTestFinished(() => {
      delete (URL as Partial<typeof URL>).createObjectURL;
      delete (URL as Partial<typeof URL>).revokeObjectURL;
    });
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(`${this.download} ${this.getAttribute('href')}`);
    });
    renderSignedIn(<CallSummaryDialog call={makeCall()} onClose={() => {}} />);
    expect((screen.getByRole('button', { name: 'Export' }) as HTMLButtonElement).disabled).toBe(true);
    await screen.findByRole('region', { name: 'Criteria' });

    fireEvent.click(screen.getByRole('button', { name: 'Export' }));

    const today = new Date();
    const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    expect(downloads).toEqual([`call-summary-call-1-${day}.csv blob:summary`]);
    expect(document.querySelector('a[download]')).toBeNull();
    const text = await blobs[0]!.text();
    expect(blobs[0]!.type).toBe('text/csv;charset=utf-8');
    expect(text).toContain('Section,Category,Item,Content\r\n');
    expect(text).toContain('Improvement,Closing,Next steps,Agree on a follow-up date.\r\n');
    expect(text).toContain('Verdict,Closing,Next steps,Failed — No follow-up date was agreed.\r\n');
    await waitFor(() => expect(revokeObjectURL).toHaveBeenCalledWith('blob:summary'));
  });

  it('opens Share and Report Issue over the summary, and Close reports back', async () => {
    stubGateway((_request, url) => (url.pathname === summaryPath ? jsonResponse(makeSummary()) : undefined));
    const onClose = vi.fn();
    renderSignedIn(<CallSummaryDialog call={makeCall()} onClose={onClose} />);

    fireEvent.click(await screen.findByRole('button', { name: 'Share' }));
    expect(screen.getByRole('dialog', { name: 'Share Summary' })).toBeTruthy();
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Share Summary' })).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Share Summary' })).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Report Issue' }));
    expect(screen.getByRole('dialog', { name: 'Report Issue' })).toBeTruthy();
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Describe the issue' }), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Report Issue' })).toBeNull());
    expect(onClose).not.toHaveBeenCalled();

    fireEvent.click(within(dialog()).getAllByRole('button', { name: 'Close' })[1]!);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('asks the server again when a closed summary is reopened', async () => {
    const api = stubGateway((_request, url) => (url.pathname === summaryPath ? jsonResponse(makeSummary()) : undefined));
    const call = makeCall();
    const view = renderSignedIn(<CallSummaryDialog call={call} onClose={() => {}} />);
    await screen.findByRole('region', { name: 'Criteria' });

    view.rerender(<CallSummaryDialog call={null} onClose={() => {}} />);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    view.rerender(<CallSummaryDialog call={call} onClose={() => {}} />);
    await waitFor(() => expect(api.sent('GET', summaryPath)).toHaveLength(2));
    expect(await screen.findByRole('region', { name: 'Criteria' })).toBeTruthy();
  });
});
