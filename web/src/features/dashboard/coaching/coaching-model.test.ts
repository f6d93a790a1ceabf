import { describe, expect, it } from 'vitest';
import { activitiesLink, hasScoredWeek, standingOf, statisticRows } from './coaching-model';

describe('links to the failed activities', () => {
  it('pre-filter the activity screen on those calls or meetings, comma-separated', () => {
    expect(activitiesLink('calls', ['c1', 'c2', 'c3'])).toBe('/activities?callId=c1,c2,c3');
    expect(activitiesLink('meetings', ['m1'])).toBe('/activities?meetingId=m1');
  });

  it('encode an id that is not URL-safe', () => {
    expect(activitiesLink('calls', ['a b', 'c&d'])).toBe('/activities?callId=a%20b,c%26d');
  });
});

describe('statistics against the team median', () => {
  it('are labelled, formatted by metric and ordered, N/A where nothing was measured', () => {
    const rows = statisticRows(
      [
        { metric: 'average_duration', value: 125, teamMedian: 3725 },
        { metric: 'script_match', value: null, teamMedian: 80 },
        { metric: 'total_activities', value: 1234, teamMedian: 1000 },
        { metric: 'average_score', value: 7.46, teamMedian: 7.46 },
        { metric: 'conversion_rate', value: 40, teamMedian: 52.25 },
      ],
      'calls',
    );
    expect(rows.map((row) => [row.label, row.value, row.teamMedian, row.standing])).toEqual([
      ['Total Calls', '1,234', '1,000', 'above'],
      ['Conversion Rate', '40.0%', '52.3%', 'below'],
      ['Average Score', '7.5 / 10', '7.5 / 10', 'equal'],
      ['Script Match Rate', 'N/A', '80.0%', 'unknown'],
      ['Average Call Duration', '2:05', '62:05', 'below'],
    ]);
  });

  it('write meeting durations in h/m/s and keep a figure it does not know, last', () => {
    const rows = statisticRows(
      [
        { metric: 'talk_ratio', value: 0.456, teamMedian: null },
        { metric: 'average_duration', value: 3725, teamMedian: 45 },
        { metric: 'total_activities', value: 3, teamMedian: 3 },
      ],
      'meetings',
    );
    expect(rows.map((row) => [row.label, row.value, row.teamMedian])).toEqual([
      ['Total Meetings', '3', '3'],
      ['Average Meeting Duration', '1h 2m 5s', '45s'],
      ['Talk ratio', '0.5', 'N/A'],
    ]);
  });

  it('stand above, below or at the median, unknown without one', () => {
    expect(standingOf(2, 1)).toBe('above');
    expect(standingOf(1, 2)).toBe('below');
    expect(standingOf(1, 1)).toBe('equal');
    expect(standingOf(null, 1)).toBe('unknown');
    expect(standingOf(1, null)).toBe('unknown');
  });
});

describe('weekly trend', () => {
  it('has something to draw only with a scored week', () => {
    expect(hasScoredWeek([{ week: '2025-03-03', averageScore: null, activities: 2 }])).toBe(false);
    expect(hasScoredWeek([{ week: '2025-03-03', averageScore: 0, activities: 2 }])).toBe(true);
    expect(hasScoredWeek([])).toBe(false);
  });
});
