import { describe, expect, it } from 'vitest';
import { sharedSummaryMessage, type SharedSummary } from './shared-summary.js';

const shared: SharedSummary = {
  kind: 'call',
  name: 'refund-call.txt',
  occurredAt: new Date('2026-11-20T09:30:00Z'),
  representative: 'Daniel (daniel@example.com)',
  score: 7.5,
  summary: 'Daniel refunded a double charge <today>.',
  improvements: [
    {
      groupId: 'g1',
      groupName: 'Opening & tone',
      criteria: [{ criterionId: 'c1', criterionName: 'Greeting', suggestion: 'Say "Welcome to Northwind" first.' }],
    },
  ],
  sharedBy: 'Ann Smith (ann@example.com)',
};

describe('sharedSummaryMessage', () => {
  it('carries the summary and every improvement, grouped, in text and HTML', () => {
    const message = sharedSummaryMessage('reader@example.com', shared);
    expect(message.to).toBe('reader@example.com');
    expect(message.subject).toBe('Call summary: refund-call.txt (2026-11-20)');
    expect(message.text).toContain('Ann Smith (ann@example.com) shared this call summary with you from Parlance.');
    expect(message.text).toContain('Score: 7.5 / 10');
    expect(message.text).toContain('Daniel refunded a double charge <today>.');
    expect(message.text).toContain('Opening & tone:\n- Greeting: Say "Welcome to Northwind" first.');
    expect(message.html).toContain('<h3>Opening &amp; tone</h3>');
    expect(message.html).toContain('Daniel refunded a double charge &lt;today&gt;.');
    expect(message.html).not.toContain('<today>');
  });

  it('says so when there is nothing to improve, and leaves out a missing score', () => {
    const message = sharedSummaryMessage('reader@example.com', { ...shared, kind: 'meeting', name: 'Pilot review', score: null, improvements: [], summary: '' });
    expect(message.subject).toBe('Meeting summary: Pilot review (2026-11-20)');
    expect(message.text).toContain('Excellent performance: no improvements suggested.');
    expect(message.text).toContain('No summary is available.');
    expect(message.text).not.toContain('Score:');
  });
});
