/**
 * The e-mail of a shared summary (spec part 2 §2.6): the overall summary and the Areas for
 * Improvement grouped by criteria group, as HTML and plain text. Never the transcript: what was
 * said stays in Parlance, and the recipient may be outside the company.
 */
import { escapeHtml } from '@parlance/platform/mail/escape-html';
import type { MailMessage } from '@parlance/platform/mail/mailer';
import type { Improvement } from '@parlance/proto/parlance/scoring/v1/evaluation';
import type { ActivityKindName } from '@parlance/platform/activity/activity-kind';

export interface SharedSummary {
  kind: ActivityKindName;
  /** The meeting's title or the call's file name. */
  name: string;
  occurredAt: Date;
  representative: string;
  score: number | null;
  summary: string;
  improvements: Improvement[];
  sharedBy: string;
}

const NO_IMPROVEMENTS = 'Excellent performance: no improvements suggested.';

export function sharedSummaryMessage(to: string, shared: SharedSummary): MailMessage {
  const noun = shared.kind === 'meeting' ? 'Meeting' : 'Call';
  const day = shared.occurredAt.toISOString().slice(0, 10);
  const title = `${noun} summary: ${shared.name} (${day})`;
  const facts = [`Representative: ${shared.representative}`, ...(shared.score === null ? [] : [`Score: ${shared.score.toFixed(1)} / 10`])];
  const intro = `${shared.sharedBy} shared this ${noun.toLowerCase()} summary with you from Parlance.`;
  const summary = shared.summary.trim() || 'No summary is available.';

  const textImprovements = shared.improvements.length
    ? shared.improvements.flatMap((group) => [`${group.groupName}:`, ...group.criteria.map((criterion) => `- ${criterion.criterionName}: ${criterion.suggestion}`)])
    : [NO_IMPROVEMENTS];
  const text = [intro, '', title, ...facts, '', 'Summary', summary, '', 'Areas for Improvement', ...textImprovements].join('\n');

  const htmlImprovements = shared.improvements.length
    ? shared.improvements
        .map(
          (group) =>
            `<h3>${escapeHtml(group.groupName)}</h3><ul>${group.criteria.map((criterion) => `<li><strong>${escapeHtml(criterion.criterionName)}</strong>: ${escapeHtml(criterion.suggestion)}</li>`).join('')}</ul>`,
        )
        .join('\n')
    : `<p>${escapeHtml(NO_IMPROVEMENTS)}</p>`;
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">
<p>${escapeHtml(intro)}</p>
<h1 style="font-size:20px">${escapeHtml(title)}</h1>
<p>${facts.map(escapeHtml).join('<br>')}</p>
<h2 style="font-size:17px">Summary</h2>
<p>${escapeHtml(summary)}</p>
<h2 style="font-size:17px">Areas for Improvement</h2>
${htmlImprovements}
</body></html>`;
  return { to, subject: title, text, html };
}
