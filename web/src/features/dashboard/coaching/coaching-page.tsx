import { useId, useMemo, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { Spinner } from '../../../components/spinner';
import { useGetCoachingQuery } from '../../../lib/api/gateway-api.generated';
import { formatDay } from '../../../lib/format';
import { ActivityTabs } from '../../../components/activity-tabs';
import { weeklyScoreOptions } from '../chart-options';
// Within this feature: a sub-folder's '../charts/' reads to the lint rule as another feature.
import { Chart } from '../charts/chart';
import { DashboardDateRange } from '../dashboard-date-range';
import { parseLocalDay, type DayRange } from '../dashboard-filters';
import { activityNoun, formatCount, formatPercent } from '../format';
import { browserTimeZone, type ActivityType } from '../metrics';
import { activitiesLink, hasScoredWeek, STANDING_TEXT, statisticRows, type Coaching, type FailedCriterion } from './coaching-model';
import { readCoachingState } from './coaching-link';
import '../dashboard.css';
import './coaching.css';

/** The trend line's colour: the app's accent, the first of the charts' palette. */
const TREND_COLOR = '#2f5bd3';

/** The e-mail of the path, decoded once more should it arrive still encoded. */
function emailOf(param: string | undefined): string {
  const value = param ?? '';
  try {
    return decodeURIComponent(value).trim();
  } catch {
    return value.trim();
  }
}

const dayText = (day: string) => {
  const date = parseLocalDay(day);
  return date ? formatDay(date) : day;
};

/** 'No activities or team membership for {email}': what the view says for a 404. */
export const notFoundText = (email: string) => `No activities or team membership for ${email}`;

/**
 * /dashboard/representatives/:email: one representative's coaching view. Their weekly score, the
 * criteria they fail most (each opening those activities on the activity screen), and their
 * figures against their teams' median. Opened from the leaderboard, it starts on the tab and
 * period the dashboard showed.
 */
export function CoachingPage() {
  const email = emailOf(useParams().email);
  const initial = readCoachingState(useLocation().state);
  const [activityType, setActivityType] = useState<ActivityType>(initial?.activityType ?? 'calls');
  const [range, setRange] = useState<DayRange | undefined>(initial?.range);
  const timezone = useMemo(browserTimeZone, []);

  const query = useGetCoachingQuery(
    { email: encodeURIComponent(email), activityType, timezone, ...(range ? { from: range.from, to: range.to } : {}) },
    { skip: !email },
  );
  const coaching = query.isError ? undefined : query.currentData;
  const notFound = query.isError && 'status' in query.error && query.error.status === 404;
  const periodLabelId = useId();

  return (
    <div className="page coaching-page">
      <p className="coaching-page__back">
        <Link to="/dashboard">
          <span aria-hidden="true">← </span>Back to dashboard
        </Link>
      </p>
      <div className="coaching-page__header">
        <h1>{coaching?.name || email}</h1>
        <p className="coaching-page__email">{email}</p>
      </div>

      <ActivityTabs value={activityType} onChange={setActivityType}>
        <div className="dashboard-toolbar">
          <div className="dashboard-field" role="group" aria-labelledby={periodLabelId}>
            <span id={periodLabelId} className="dashboard-field__label">
              Period
            </span>
            <DashboardDateRange range={range} onChange={setRange} />
          </div>
        </div>

        {notFound ? (
          <p className="card coaching-page__missing">{notFoundText(email)}</p>
        ) : query.isError ? (
          <div className="alert coaching-page__error" role="alert">
            <span>This coaching view could not be loaded.</span>
            <button type="button" className="button button--small" onClick={() => void query.refetch()}>
              Try again
            </button>
          </div>
        ) : !coaching ? (
          <p className="coaching-page__loading">
            <Spinner label="Loading coaching view" />
          </p>
        ) : (
          <CoachingView coaching={coaching} activityType={activityType} />
        )}
      </ActivityTabs>
    </div>
  );
}

function CoachingView({ coaching, activityType }: { coaching: Coaching; activityType: ActivityType }) {
  const trendId = useId();
  const criteriaId = useId();
  const statisticsId = useId();
  const noun = activityNoun(activityType);
  const trendOptions = useMemo(
    () => (hasScoredWeek(coaching.trend) ? weeklyScoreOptions(coaching.trend, coaching.name || coaching.email, activityType, TREND_COLOR) : null),
    [coaching, activityType],
  );
  const rows = statisticRows(coaching.statistics, activityType);

  return (
    <>
      <p className="coaching-page__period">
        {coaching.from && coaching.to ? `${dayText(coaching.from)} – ${dayText(coaching.to)}` : `Every ${activityNoun(activityType, 1)} so far`}
      </p>
      <div className="coaching-grid">
        <section className="card dashboard-card coaching-grid__wide" aria-labelledby={trendId}>
          <h2 id={trendId} className="dashboard-card__title coaching-card__title">
            Weekly Score Trend
          </h2>
          {trendOptions ? <Chart options={trendOptions} label="Weekly Score Trend" /> : <p className="dashboard-card__state">No scored {noun} in this period.</p>}
        </section>

        <section className="card dashboard-card" aria-labelledby={criteriaId}>
          <h2 id={criteriaId} className="dashboard-card__title coaching-card__title">
            Criteria They Fail Most
          </h2>
          {coaching.failedCriteria.length === 0 ? (
            <p className="dashboard-card__state">No failed criteria in this period.</p>
          ) : (
            <ol className="coaching-criteria">
              {coaching.failedCriteria.map((criterion) => (
                <CriterionItem key={`${criterion.teamId}:${criterion.groupId}:${criterion.criterionId}`} criterion={criterion} activityType={activityType} />
              ))}
            </ol>
          )}
        </section>

        <section className="card dashboard-card" aria-labelledby={statisticsId}>
          <h2 id={statisticsId} className="dashboard-card__title coaching-card__title">
            Statistics vs Team Median
          </h2>
          {rows.length === 0 ? (
            <p className="dashboard-card__state">No statistics in this period.</p>
          ) : (
            <div className="coaching-table__scroll" tabIndex={0} role="region" aria-label="Statistics table">
              <table className="coaching-table">
                <thead>
                  <tr>
                    <th scope="col">Statistic</th>
                    <th scope="col" className="coaching-table__number">
                      Representative
                    </th>
                    <th scope="col" className="coaching-table__number">
                      Team Median
                    </th>
                    <th scope="col">Standing</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr key={row.metric}>
                      <th scope="row">{row.label}</th>
                      <td className="coaching-table__number">{row.value}</td>
                      <td className="coaching-table__number">{row.teamMedian}</td>
                      <td>{STANDING_TEXT[row.standing]}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      </div>
    </>
  );
}

function CriterionItem({ criterion, activityType }: { criterion: FailedCriterion; activityType: ActivityType }) {
  const ids = criterion.activityIds;
  const shown = ids.length;
  const rate = Math.min(100, Math.max(0, criterion.failureRate));
  const linkText = shown < criterion.failed ? `View the latest ${shown} failed ${activityNoun(activityType, shown)}` : `View ${shown} failed ${activityNoun(activityType, shown)}`;
  return (
    <li className="coaching-criterion">
      <div className="coaching-criterion__head">
        <span className="coaching-criterion__name">{criterion.criterionName}</span>
        <span className="coaching-criterion__rate">{`Fails ${formatPercent(criterion.failureRate)}`}</span>
      </div>
      <div className="coaching-criterion__bar" aria-hidden="true">
        <span style={{ width: `${rate}%` }} />
      </div>
      <p className="coaching-criterion__counts">
        {`Failed ${formatCount(criterion.failed)} of ${formatCount(criterion.judged)} ${activityNoun(activityType, criterion.judged)} judged on it.`}
      </p>
      {shown > 0 ? (
        // The name says which criterion, as the links of the list read alike.
        <Link className="coaching-criterion__link" to={activitiesLink(activityType, ids)} aria-label={`${linkText} for ${criterion.criterionName}`}>
          {linkText}
        </Link>
      ) : null}
    </li>
  );
}
