import { useId } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../components/spinner';
import { coachingPath, type CoachingRouteState } from './coaching/coaching-link';
import { downloadTextFile } from '../../lib/download-file';
import { activityNoun, formatAverageScore, formatCount, formatSuccessRate } from './format';
import { LEADERBOARD_FILE_NAME, leaderboardCsv, type LeaderboardRow } from './leaderboard-csv';

interface LeaderboardCardProps {
  rows: readonly LeaderboardRow[];
  loading: boolean;
  /** What a representative's coaching link carries: the tab and the period shown. */
  coachingState: CoachingRouteState;
}

/**
 * The Leaderboard card (spec part 2 §2.9): 32vh high, its table scrolling inside it, each
 * representative linking to their coaching view, and a CSV export of the rows shown.
 */
export function LeaderboardCard({ rows, loading, coachingState }: LeaderboardCardProps) {
  const headingId = useId();
  const noun = activityNoun(coachingState.activityType);
  return (
    <section className="card dashboard-card leaderboard" aria-labelledby={headingId}>
      <header className="dashboard-card__header">
        <h2 id={headingId} className="dashboard-card__title">
          Leaderboard
        </h2>
        <button
          type="button"
          className="button button--small"
          disabled={rows.length === 0}
          onClick={() => downloadTextFile(LEADERBOARD_FILE_NAME, leaderboardCsv(rows))}
        >
          Export CSV
        </button>
      </header>
      {loading ? (
        <div className="dashboard-card__state">
          <Spinner label="Loading Leaderboard" />
        </div>
      ) : rows.length === 0 ? (
        <p className="dashboard-card__state">No {noun} for these filters.</p>
      ) : (
        // Focusable so the table can be scrolled from the keyboard.
        <div className="leaderboard__scroll" tabIndex={0} role="region" aria-label="Leaderboard table">
          <table className="leaderboard__table">
            <thead>
              <tr>
                <th scope="col">Representative</th>
                <th scope="col" className="leaderboard__number">
                  Total Activities
                </th>
                <th scope="col" className="leaderboard__number">
                  Successful Activities
                </th>
                <th scope="col" className="leaderboard__number">
                  Success Rate
                </th>
                <th scope="col" className="leaderboard__number">
                  Average Score
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={`${row.team_id}:${row.representative_email}`}>
                  <th scope="row" className="leaderboard__name">
                    <Link to={coachingPath(row.representative_email)} state={coachingState}>
                      {row.representative_name}
                    </Link>
                    {row.representative_name !== row.representative_email ? <span className="leaderboard__email">{row.representative_email}</span> : null}
                  </th>
                  <td className="leaderboard__number">{formatCount(row.total_activities)}</td>
                  <td className="leaderboard__number">{formatCount(row.successful_activities)}</td>
                  <td className="leaderboard__number">{formatSuccessRate(row.success_rate)}</td>
                  <td className="leaderboard__number">{formatAverageScore(row.average_score)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
