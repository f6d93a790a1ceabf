import { useId } from 'react';
import { skipToken } from '@reduxjs/toolkit/query';
import { Spinner } from '../../../components/spinner';
import { useGetRecommendationsQuery, type GetRecommendationsApiArg } from '../../../lib/api/gateway-api.generated';
import { formatCount } from '../../../lib/format';
import { downloadTextFile } from '../../../lib/download-file';
import type { ActivityType } from '../metrics';
import { formatPeriod } from './period-presets';
import { adviceFor } from './advice';
import { hasMembers, recommendationsCsv, recommendationsFileName } from './recommendations-csv';
import {
  activityNoun,
  formatNeeded,
  formatRate,
  formatScore,
  formatScriptMatch,
  recommendationsError,
  targetStatus,
  worstFirst,
  type MemberRecommendation,
  type RecommendationGroup,
  type TeamRecommendation,
} from './recommendations-format';

export const NO_GROUP_TO_ANALYSE = 'Choose at least one team in a filter group to see the analysis.';

/**
 * 'Performance Analysis' (spec part 2 §2.11): for each filter group, each team and each member,
 * how far they are from their target and what would close the gap, as the API worked it out, and
 * the advice worded from it; exported as recommendations_{date}.csv.
 */
export function PerformanceAnalysis({ arg, activityType }: { arg: GetRecommendationsApiArg | undefined; activityType: ActivityType }) {
  const headingId = useId();
  const { data, error, isError, isLoading, isFetching } = useGetRecommendationsQuery(arg ?? skipToken);
  const groups = arg && !isError ? data : undefined;

  const exportCsv = () => {
    if (groups) downloadTextFile(recommendationsFileName(new Date()), recommendationsCsv(groups, activityType));
  };

  return (
    <section className="card performance-card" aria-labelledby={headingId} aria-busy={isFetching}>
      <div className="performance-card__header">
        <h2 id={headingId} className="performance-card__title">
          Performance Analysis
        </h2>
        <button
          type="button"
          className="button button--small"
          aria-label="Export Performance Analysis as CSV"
          disabled={!groups || !hasMembers(groups) || isFetching}
          onClick={exportCsv}
        >
          CSV
        </button>
      </div>
      {!arg ? (
        <p className="performance-card__placeholder">{NO_GROUP_TO_ANALYSE}</p>
      ) : isError ? (
        <p className="alert" role="alert">
          {recommendationsError(error)}
        </p>
      ) : isLoading || !groups ? (
        <div className="performance-card__placeholder">
          <Spinner label="Loading recommendations" />
        </div>
      ) : groups.length === 0 ? (
        <p className="performance-card__placeholder">No recommendations for the selected filters.</p>
      ) : (
        groups.map((group) => <GroupAnalysis key={group.groupId} group={group} activityType={activityType} />)
      )}
    </section>
  );
}

function GroupAnalysis({ group, activityType }: { group: RecommendationGroup; activityType: ActivityType }) {
  return (
    // Not a region: the filter group of the same name is one, and two would share a name.
    <div className="performance-analysis__group">
      <h3 className="performance-analysis__group-title">
        {group.groupName}
      </h3>
      <p className="field__hint">
        {formatPeriod(group.from, group.to)} · {formatCount(group.workingDays)} working {group.workingDays === 1 ? 'day' : 'days'}
      </p>
      {group.teams.length === 0 ? (
        <p>No team activity in this group.</p>
      ) : (
        group.teams.map((team) => <TeamAnalysis key={team.teamId} team={team} activityType={activityType} />)
      )}
    </div>
  );
}

/** The figures a team and a member share, as label and value. */
function standingFigures(standing: Omit<TeamRecommendation, 'teamId' | 'teamName' | 'members' | 'criteria'>, noun: string): [string, string][] {
  return [
    ['Target', formatCount(standing.target)],
    [`Successful ${noun}`, formatCount(standing.successfulCalls)],
    [`Total ${noun}`, formatCount(standing.totalCalls)],
    ['Conversion rate', formatRate(standing.conversionRate)],
    ['Average score', formatScore(standing.averageScore)],
    [`Additional ${noun} needed`, formatNeeded(standing.additionalNeeded)],
    ['Required conversion rate', formatRate(standing.requiredConversionRate)],
    ['Required average score', formatScore(standing.requiredAverageScore)],
  ];
}

function Status({ onTarget }: { onTarget: boolean }) {
  return <span className={`badge ${onTarget ? 'badge--success' : 'badge--warning'}`}>{targetStatus(onTarget)}</span>;
}

function TeamAnalysis({ team, activityType }: { team: TeamRecommendation; activityType: ActivityType }) {
  const headingId = useId();
  const noun = activityNoun(activityType);
  const teamAdvice = adviceFor(team, activityType);
  return (
    <article className="performance-team" aria-labelledby={headingId}>
      <div className="performance-team__header">
        <h4 id={headingId} className="performance-team__title">
          {team.teamName}
        </h4>
        <Status onTarget={team.onTarget} />
      </div>
      <dl className="performance-figures">
        {standingFigures(team, noun).map(([label, value]) => (
          <div key={label} className="performance-figures__item">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {teamAdvice.length > 0 && (
        <ul className="performance-advice" aria-label={`Advice for ${team.teamName}`}>
          {teamAdvice.map((line, index) => (
            <li key={index}>{line}</li>
          ))}
        </ul>
      )}
      {team.members.length === 0 ? (
        <p className="field__hint">No members.</p>
      ) : (
        // The table scrolls inside its own box, so the page never scrolls sideways.
        <div className="performance-table__scroll" role="region" aria-label={`${team.teamName} members`} tabIndex={0}>
          <table className="performance-table">
            <thead>
              <tr>
                <th scope="col">First name</th>
                <th scope="col">Last name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Target</th>
                <th scope="col">Successful {noun}</th>
                <th scope="col">Total {noun}</th>
                <th scope="col">Conversion rate</th>
                <th scope="col">Average score</th>
                <th scope="col">Script match</th>
                <th scope="col">Status</th>
                <th scope="col">Additional {noun} needed</th>
                <th scope="col">Required conversion rate</th>
                <th scope="col">Required average score</th>
                <th scope="col">Criteria failure rate</th>
                <th scope="col">Advice</th>
              </tr>
            </thead>
            <tbody>
              {team.members.map((member) => (
                <MemberRow key={member.email} member={member} activityType={activityType} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </article>
  );
}

function MemberRow({ member, activityType }: { member: MemberRecommendation; activityType: ActivityType }) {
  const advice = adviceFor(member, activityType);
  return (
    <tr>
      <td>{member.firstName}</td>
      <td>{member.lastName}</td>
      <td>{member.email}</td>
      <td className="performance-table__number">{formatCount(member.target)}</td>
      <td className="performance-table__number">{formatCount(member.successfulCalls)}</td>
      <td className="performance-table__number">{formatCount(member.totalCalls)}</td>
      <td className="performance-table__number">{formatRate(member.conversionRate)}</td>
      <td className="performance-table__number">{formatScore(member.averageScore)}</td>
      <td className="performance-table__number">{formatScriptMatch(member.scriptMatch)}</td>
      <td>
        <Status onTarget={member.onTarget} />
      </td>
      <td className="performance-table__number">{formatNeeded(member.additionalNeeded)}</td>
      <td className="performance-table__number">{formatRate(member.requiredConversionRate)}</td>
      <td className="performance-table__number">{formatScore(member.requiredAverageScore)}</td>
      <td className="performance-table__wrap">
        {member.criteria.length === 0 ? (
          'None judged'
        ) : (
          <ul className="performance-table__list">
            {worstFirst(member.criteria).map((criterion) => (
              <li key={`${criterion.teamId}:${criterion.groupId}:${criterion.criterionId}`}>
                {criterion.criterionName}: {formatRate(criterion.failureRate)}
              </li>
            ))}
          </ul>
        )}
      </td>
      <td className="performance-table__wrap">
        {advice.length === 0 ? (
          '—'
        ) : (
          <ul className="performance-table__list">
            {advice.map((line, index) => (
              <li key={index}>{line}</li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}
