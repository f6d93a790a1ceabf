import { Fragment, useId, useRef, useState, type ReactNode } from 'react';
import {
  formatOffset,
  formatShare,
  improvementCount,
  roleBadgeOf,
  type SummaryEvaluation,
  type SummaryEvidence,
  type SummaryImprovement,
  type SummarySegment,
  type SummaryVerdict,
} from './summary-model';

/** The empty-state sentences, which differ between calls and meetings (spec part 2 §2.5). */
export type SummaryTexts = {
  noTranscript: string;
  noSummary: string;
  excellent: string;
};

type SummaryViewProps = {
  segments: readonly SummarySegment[];
  summary: string;
  improvements: readonly SummaryImprovement[];
  evaluation: SummaryEvaluation | null;
  /** The recording's address for a recorded call; evidence then plays from its moment. */
  recordingUrl: string | null;
  texts: SummaryTexts;
  /** Shown above the analysis while the full analysis is still on its way (meetings). */
  analysisNote?: ReactNode;
};

type ActiveQuote = { segmentIndex: number; quote: string };

/**
 * The two sides of a summary dialog: the transcript on the left (above, on a phone), the analysis
 * on the right. A click on an evidence quote scrolls the transcript to its segment, highlights it
 * and, for a recorded call, plays the recording from that moment.
 */
export function SummaryView({ segments, summary, improvements, evaluation, recordingUrl, texts, analysisNote }: SummaryViewProps) {
  const transcriptList = useRef<HTMLOListElement>(null);
  const audio = useRef<HTMLAudioElement>(null);
  const [active, setActive] = useState<ActiveQuote | null>(null);

  const showEvidence = (evidence: SummaryEvidence) => {
    setActive({ segmentIndex: evidence.segmentIndex, quote: evidence.quote });
    const segment = transcriptList.current?.querySelector<HTMLElement>(`[data-segment-index="${evidence.segmentIndex}"]`);
    segment?.scrollIntoView?.({ behavior: 'smooth', block: 'center' });
    const player = audio.current;
    if (player && recordingUrl && evidence.startMs !== null) {
      player.currentTime = evidence.startMs / 1000;
      try {
        // A browser may refuse to play (autoplay rules, an unreadable file); the seek still stands.
        player.play()?.catch(() => {});
      } catch {
        // Older engines throw instead of rejecting.
      }
    }
  };

  return (
    <div className="summary-layout">
      <TranscriptPane segments={segments} active={active} emptyText={texts.noTranscript} listRef={transcriptList}>
        {recordingUrl ? (
          <div className="summary-player">
            <audio ref={audio} className="summary-audio" controls preload="metadata" src={recordingUrl} aria-label="Call recording" />
          </div>
        ) : null}
      </TranscriptPane>
      <AnalysisPane
        summary={summary}
        improvements={improvements}
        evaluation={evaluation}
        texts={texts}
        note={analysisNote}
        onEvidence={showEvidence}
      />
    </div>
  );
}

/** A pane of the layout: a labelled region that scrolls by itself on wide screens. */
function Pane({ title, className, children }: { title: string; className: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className={`summary-pane ${className}`} aria-labelledby={headingId}>
      <h3 id={headingId} className="summary-pane__title">
        {title}
      </h3>
      {children}
    </section>
  );
}

function TranscriptPane({
  segments,
  active,
  emptyText,
  listRef,
  children,
}: {
  segments: readonly SummarySegment[];
  active: ActiveQuote | null;
  emptyText: string;
  listRef: React.RefObject<HTMLOListElement | null>;
  children: ReactNode;
}) {
  return (
    <Pane title="Transcript" className="summary-pane--transcript">
      {children}
      {segments.length === 0 ? (
        <EmptyState title={emptyText} />
      ) : (
        <ol ref={listRef} className="summary-transcript">
          {segments.map((segment) => {
            const isActive = active?.segmentIndex === segment.index;
            const role = roleBadgeOf(segment.speaker, segment.role);
            return (
              <li
                key={segment.index}
                data-segment-index={segment.index}
                className={`summary-segment summary-segment--${segment.role}${isActive ? ' summary-segment--active' : ''}`}
                aria-current={isActive ? 'true' : undefined}
              >
                <div className="summary-segment__meta">
                  <span className="summary-segment__speaker">{segment.speaker || 'Speaker'}</span>
                  {role ? <span className="summary-segment__role">{role}</span> : null}
                  {segment.startMs !== null ? <span className="summary-segment__time">{formatOffset(segment.startMs)}</span> : null}
                </div>
                <p className="summary-segment__text">{isActive && active ? <Highlighted text={segment.text} quote={active.quote} /> : segment.text}</p>
              </li>
            );
          })}
        </ol>
      )}
    </Pane>
  );
}

/** The segment's text with the quoted words marked, when they are found in it. */
function Highlighted({ text, quote }: { text: string; quote: string }) {
  const at = quote ? text.indexOf(quote) : -1;
  if (at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <mark className="summary-segment__quote">{quote}</mark>
      {text.slice(at + quote.length)}
    </>
  );
}

function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="summary-empty">
      <p className="summary-empty__title">{title}</p>
      {children}
    </div>
  );
}

type AnalysisPaneProps = {
  summary: string;
  improvements: readonly SummaryImprovement[];
  evaluation: SummaryEvaluation | null;
  texts: SummaryTexts;
  note: ReactNode;
  onEvidence: (evidence: SummaryEvidence) => void;
};

function AnalysisPane({ summary, improvements, evaluation, texts, note, onEvidence }: AnalysisPaneProps) {
  const hasContent = summary.trim() !== '' || improvements.length > 0 || evaluation !== null;
  return (
    <Pane title="Analysis" className="summary-pane--analysis">
      {note}
      {evaluation ? <EvaluationWarnings warnings={evaluation.warnings} /> : null}
      {!hasContent ? (
        <EmptyState title={texts.noSummary} />
      ) : (
        <>
          <SummarySection summary={summary} evaluation={evaluation} />
          <ImprovementsSection improvements={improvements} excellent={texts.excellent} />
          {evaluation ? <OutcomeSection evaluation={evaluation} onEvidence={onEvidence} /> : null}
          {evaluation && evaluation.verdicts.length > 0 ? <VerdictsSection verdicts={evaluation.verdicts} onEvidence={onEvidence} /> : null}
          {evaluation?.statistics ? <StatisticsSection statistics={evaluation.statistics} /> : null}
        </>
      )}
    </Pane>
  );
}

/**
 * What the manager should know before trusting the analysis (how the transcript was made, how it
 * was judged), above it. A note rather than an alert: it is part of the page, not news to announce.
 */
function EvaluationWarnings({ warnings }: { warnings: readonly string[] }) {
  const titleId = useId();
  if (warnings.length === 0) return null;
  return (
    <div className="summary-warnings" role="note" aria-labelledby={titleId}>
      <p id={titleId} className="summary-warnings__title">
        <span className="summary-warnings__icon" aria-hidden="true">
          ⚠
        </span>
        Before you rely on this analysis
      </p>
      <ul className="summary-warnings__list">
        {warnings.map((warning) => (
          <li key={warning}>{warning}</li>
        ))}
      </ul>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="summary-section" aria-labelledby={headingId}>
      <h4 id={headingId} className="summary-section__title">
        {title}
      </h4>
      {children}
    </section>
  );
}

function SummarySection({ summary, evaluation }: { summary: string; evaluation: SummaryEvaluation | null }) {
  const details = evaluation?.summaryDetails;
  return (
    <Section title="Summary">
      {summary.trim() ? <p className="summary-text">{summary}</p> : <p className="summary-muted">No overall summary was written.</p>}
      {details && (details.participants.length > 0 || details.discussion || details.outcome || details.nextSteps.length > 0) ? (
        <dl className="summary-details">
          {details.participants.length > 0 ? (
            <>
              <dt>Participants</dt>
              <dd>{details.participants.join(', ')}</dd>
            </>
          ) : null}
          {details.discussion ? (
            <>
              <dt>Discussion</dt>
              <dd>{details.discussion}</dd>
            </>
          ) : null}
          {details.outcome ? (
            <>
              <dt>Outcome</dt>
              <dd>{details.outcome}</dd>
            </>
          ) : null}
          {details.nextSteps.length > 0 ? (
            <>
              <dt>Next steps</dt>
              <dd>
                <ul className="summary-list">
                  {details.nextSteps.map((step, index) => (
                    <li key={index}>{step}</li>
                  ))}
                </ul>
              </dd>
            </>
          ) : null}
        </dl>
      ) : null}
    </Section>
  );
}

function ImprovementsSection({ improvements, excellent }: { improvements: readonly SummaryImprovement[]; excellent: string }) {
  const count = improvementCount(improvements);
  return (
    <Section title="Areas for Improvement">
      {count === 0 ? (
        <div className="summary-excellent">
          <p className="summary-excellent__title">{excellent}</p>
          <p className="summary-muted">No areas for improvement were found.</p>
        </div>
      ) : (
        improvements
          .filter((group) => group.criteria.length > 0)
          .map((group) => (
            <div key={group.id} className="summary-improvement-group">
              <h5 className="summary-improvement-group__name">{group.name}</h5>
              <ul className="summary-improvements">
                {group.criteria.map((criterion) => (
                  <li key={criterion.id} className="summary-improvement">
                    <strong className="summary-improvement__criterion">{criterion.name}</strong>
                    <p className="summary-improvement__suggestion">{criterion.suggestion}</p>
                  </li>
                ))}
              </ul>
            </div>
          ))
      )}
    </Section>
  );
}

function OutcomeSection({ evaluation, onEvidence }: { evaluation: SummaryEvaluation; onEvidence: (evidence: SummaryEvidence) => void }) {
  const successful = evaluation.isSuccessful;
  return (
    <Section title="Outcome">
      <dl className="summary-figures">
        <div>
          <dt>Score</dt>
          <dd>
            {Number(evaluation.score.toFixed(1))}/10
            {evaluation.criteriaNeedingReview > 0 ? (
              <span className="summary-figures__note" title="A criterion that needs review counts by the side it leans to until a person decides.">
                {evaluation.criteriaNeedingReview === 1 ? '1 criterion needs review' : `${evaluation.criteriaNeedingReview} criteria need review`}
              </span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>Script Match</dt>
          <dd>{evaluation.scriptMatch === null ? 'N/A' : `${Math.round(evaluation.scriptMatch)}%`}</dd>
        </div>
        <div>
          <dt>Successful</dt>
          <dd>
            {evaluation.successNeedsReview ? (
              <span className="badge badge--warning">Needs review</span>
            ) : (
              <span className={`badge ${successful === null ? '' : successful ? 'badge--success' : 'badge--danger'}`}>{successful === null ? 'N/A' : successful ? 'Yes' : 'No'}</span>
            )}
          </dd>
        </div>
      </dl>
      {evaluation.successNeedsReview ? (
        <p className="summary-verdict__line">
          <span className="summary-verdict__label">Leans to {successful ? 'successful' : 'not successful'}:</span> the evaluator is {formatShare(evaluation.successConfidence)} sure; counted as{' '}
          {successful ? 'successful' : 'not successful'} until someone checks the evidence.
        </p>
      ) : null}
      {evaluation.successReason ? <p className="summary-text">{evaluation.successReason}</p> : null}
      <EvidenceList evidence={evaluation.successEvidence} onEvidence={onEvidence} />
    </Section>
  );
}

function VerdictsSection({ verdicts, onEvidence }: { verdicts: readonly SummaryVerdict[]; onEvidence: (evidence: SummaryEvidence) => void }) {
  // The team's order, grouped by criteria group.
  const groups: { id: string; name: string; verdicts: SummaryVerdict[] }[] = [];
  for (const verdict of verdicts) {
    const group = groups.find((candidate) => candidate.id === verdict.groupId);
    if (group) group.verdicts.push(verdict);
    else groups.push({ id: verdict.groupId, name: verdict.groupName, verdicts: [verdict] });
  }
  return (
    <Section title="Criteria">
      {groups.map((group) => (
        <Fragment key={group.id}>
          <h5 className="summary-improvement-group__name">{group.name}</h5>
          <ul className="summary-verdicts">
            {group.verdicts.map((verdict) => (
              <li key={verdict.criterionId} className={`summary-verdict summary-verdict--${verdict.needsReview ? 'review' : verdict.passed ? 'passed' : 'failed'}`}>
                <div className="summary-verdict__head">
                  <strong className="summary-verdict__criterion">{verdict.criterionName}</strong>
                  {verdict.needsReview ? (
                    <span className="badge badge--warning">Needs review</span>
                  ) : (
                    <span className={`badge ${verdict.passed ? 'badge--success' : 'badge--danger'}`}>{verdict.passed ? 'Passed' : 'Failed'}</span>
                  )}
                  {!verdict.applicable ? <span className="badge">Not applicable</span> : null}
                  <span className="summary-verdict__confidence">Confidence {formatShare(verdict.confidence)}</span>
                </div>
                {verdict.needsReview ? (
                  <p className="summary-verdict__line">
                    <span className="summary-verdict__label">Leans to {verdict.passed ? 'passed' : 'failed'}:</span> the evaluator is not sure enough to decide; counted as{' '}
                    {verdict.passed ? 'passed' : 'failed'} in the score until someone checks the evidence.
                  </p>
                ) : null}
                {verdict.reason ? <p className="summary-verdict__reason">{verdict.reason}</p> : null}
                {verdict.expected ? (
                  <p className="summary-verdict__line">
                    <span className="summary-verdict__label">Expected:</span> {verdict.expected}
                  </p>
                ) : null}
                {verdict.suggestion ? (
                  <p className="summary-verdict__line">
                    <span className="summary-verdict__label">Suggestion:</span> {verdict.suggestion}
                  </p>
                ) : null}
                <EvidenceList evidence={verdict.evidence} onEvidence={onEvidence} />
              </li>
            ))}
          </ul>
        </Fragment>
      ))}
    </Section>
  );
}

/** The quotes behind a verdict; each one leads to its place in the transcript (and recording). */
function EvidenceList({ evidence, onEvidence }: { evidence: readonly SummaryEvidence[]; onEvidence: (evidence: SummaryEvidence) => void }) {
  if (evidence.length === 0) return null;
  return (
    <ul className="summary-evidence">
      {evidence.map((item, index) => (
        <li key={index}>
          <button type="button" className="summary-quote" onClick={() => onEvidence(item)}>
            <q className="summary-quote__text">{item.quote}</q>
            <span className="summary-quote__source">
              {item.speaker}
              {item.startMs !== null ? ` · ${formatOffset(item.startMs)}` : ''}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

function StatisticsSection({ statistics }: { statistics: NonNullable<SummaryEvaluation['statistics']> }) {
  return (
    <Section title="Conversation Statistics">
      <div className="summary-table-scroll">
        <table className="summary-statistics">
          <thead>
            <tr>
              <th scope="col">Speaker</th>
              <th scope="col">Talk share</th>
              <th scope="col">Questions</th>
              <th scope="col">Words/min</th>
              <th scope="col">Fillers</th>
            </tr>
          </thead>
          <tbody>
            {statistics.speakers.map((speaker) => {
              const role = roleBadgeOf(speaker.speaker, speaker.role);
              return (
                <tr key={`${speaker.speaker}-${speaker.role}`}>
                  <th scope="row">
                    {speaker.speaker}
                    {role ? (
                      <>
                        {' '}
                        <span className="summary-statistics__role">{role}</span>
                      </>
                    ) : null}
                  </th>
                  <td>{formatShare(speaker.talkShare)}</td>
                  <td>{speaker.questions}</td>
                  <td>{speaker.wordsPerMinute === null ? '–' : Math.round(speaker.wordsPerMinute)}</td>
                  <td>{speaker.fillerWords}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </Section>
  );
}
