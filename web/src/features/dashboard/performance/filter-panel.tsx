import { useId } from 'react';
import { Spinner } from '../../../components/spinner';
import { useGetTeamMembersQuery, type Team } from '../../../lib/api/gateway-api.generated';
import { METRIC_LABELS, metricsOf, PERIOD_PRESETS, TIME_GROUPINGS, type ActivityType, type DashboardMode, type MetricId, type PeriodPreset, type TimeGrouping } from '../metrics';
import {
  customDaysChanged,
  groupAdded,
  groupLabel,
  groupRenamed,
  membersChanged,
  modeChanged,
  periodChanged,
  teamsChanged,
  type FilterGroup,
  type FilterGroupsDispatch,
} from './filter-groups';
import { dayOf, formatPeriod, PERIOD_LABELS } from './period-presets';

const MODES: readonly { id: DashboardMode; label: string }[] = [
  { id: 'team', label: 'Team' },
  { id: 'representative', label: 'Representative' },
];

const lower = (email: string) => email.toLowerCase();
const today = () => dayOf(new Date());

interface FilterPanelProps {
  activityType: ActivityType;
  groupBy: TimeGrouping;
  onGroupBy: (groupBy: TimeGrouping) => void;
  metrics: readonly MetricId[];
  onMetrics: (metrics: MetricId[]) => void;
  groups: readonly FilterGroup[];
  dispatch: FilterGroupsDispatch;
  /** The department's teams; undefined while they load. */
  teams: readonly Team[] | undefined;
  onBack: () => void;
  onDeleteGroup: (id: string) => void;
}

/**
 * The filter panel of the performance screen (spec part 2 §2.10): Back, the By and Metrics
 * settings every chart shares, and the filter groups, each with its mode, teams, representatives
 * and period.
 */
export function FilterPanel({ activityType, groupBy, onGroupBy, metrics, onMetrics, groups, dispatch, teams, onBack, onDeleteGroup }: FilterPanelProps) {
  const ids = useId();
  const offered = metricsOf(activityType);
  const toggleMetric = (metric: MetricId, checked: boolean) => {
    const next = new Set(metrics);
    if (checked) next.add(metric);
    else next.delete(metric);
    onMetrics(offered.filter((entry) => next.has(entry)));
  };

  return (
    <aside className="card performance-filters" aria-label="Filters">
      <div className="performance-filters__header">
        <button type="button" className="button button--small" onClick={onBack}>
          Back
        </button>
        <h2 className="performance-filters__title">Filters</h2>
      </div>

      <div className="performance-field">
        <label htmlFor={`${ids}-by`}>By</label>
        <select id={`${ids}-by`} className="field__input" value={groupBy} onChange={(event) => onGroupBy(event.target.value as TimeGrouping)}>
          {TIME_GROUPINGS.map((grouping) => (
            <option key={grouping.id} value={grouping.id}>
              {grouping.label}
            </option>
          ))}
        </select>
      </div>

      <fieldset className="performance-choices">
        <legend>Metrics</legend>
        <div className="performance-choices__list">
          {offered.map((metric) => {
            const checked = metrics.includes(metric);
            return (
              <label key={metric} className="performance-choice">
                {/* The last metric stays: a chart of nothing says nothing. */}
                <input type="checkbox" checked={checked} disabled={checked && metrics.length === 1} onChange={(event) => toggleMetric(metric, event.target.checked)} />
                {METRIC_LABELS[metric]}
              </label>
            );
          })}
        </div>
      </fieldset>

      {teams === undefined ? (
        <p>
          <Spinner label="Loading teams" />
        </p>
      ) : (
        groups.map((group, index) => (
          <GroupEditor key={group.id} group={group} label={groupLabel(group, index)} teams={teams} dispatch={dispatch} onDelete={() => onDeleteGroup(group.id)} />
        ))
      )}

      <button type="button" className="button" disabled={teams === undefined} onClick={() => dispatch(groupAdded(today()))}>
        Add filter group
      </button>
    </aside>
  );
}

interface GroupEditorProps {
  group: FilterGroup;
  label: string;
  teams: readonly Team[];
  dispatch: FilterGroupsDispatch;
  onDelete: () => void;
}

/** One filter group, a region named after it so its controls read as its own. */
function GroupEditor({ group, label, teams, dispatch, onDelete }: GroupEditorProps) {
  const ids = useId();
  const membership = teams.map((team) => ({ id: team.id, members: team.members }));
  const setTeams = (teamIds: string[]) => dispatch(teamsChanged({ id: group.id, teamIds, teams: membership }));
  const chosenTeams = teams.filter((team) => group.selectedTeams.includes(team.id));
  const chosenMembers = new Set(group.selectedMembers.map(lower));
  const setMembers = (emails: Iterable<string>) => dispatch(membersChanged({ id: group.id, emails: [...emails] }));
  const toggleMember = (email: string, checked: boolean) => {
    const next = new Set(chosenMembers);
    if (checked) next.add(lower(email));
    else next.delete(lower(email));
    setMembers(next);
  };
  const noTeam = chosenTeams.length === 0;

  return (
    <section className="performance-group" aria-label={label}>
      <div className="performance-group__header">
        <div className="performance-field performance-group__name">
          <label htmlFor={`${ids}-name`}>Group name</label>
          <input
            id={`${ids}-name`}
            className="field__input"
            value={group.name}
            maxLength={60}
            onChange={(event) => dispatch(groupRenamed({ id: group.id, name: event.target.value }))}
          />
        </div>
        <button type="button" className="button button--small" onClick={onDelete}>
          Delete group
        </button>
      </div>

      <div className="performance-field">
        <label htmlFor={`${ids}-mode`}>Mode</label>
        <select
          id={`${ids}-mode`}
          className="field__input"
          value={group.selectedMode}
          onChange={(event) => dispatch(modeChanged({ id: group.id, mode: event.target.value as DashboardMode }))}
        >
          {MODES.map((mode) => (
            <option key={mode.id} value={mode.id}>
              {mode.label}
            </option>
          ))}
        </select>
      </div>

      <fieldset className="performance-choices">
        <legend>Teams</legend>
        <div className="button-row">
          <button type="button" className="button button--small" aria-label="Select all teams" onClick={() => setTeams(teams.map((team) => team.id))} disabled={teams.length === 0}>
            Select All
          </button>
          <button type="button" className="button button--small" aria-label="Clear teams" onClick={() => setTeams([])} disabled={noTeam}>
            Clear
          </button>
        </div>
        {teams.length === 0 ? (
          <p className="field__hint">This department has no teams yet.</p>
        ) : (
          <div className="performance-choices__list">
            {teams.map((team) => (
              <label key={team.id} className="performance-choice">
                <input
                  type="checkbox"
                  checked={group.selectedTeams.includes(team.id)}
                  onChange={(event) => setTeams(event.target.checked ? [...group.selectedTeams, team.id] : group.selectedTeams.filter((id) => id !== team.id))}
                />
                {team.name}
              </label>
            ))}
          </div>
        )}
      </fieldset>

      {/* Spec part 2 §2.10: representatives can be chosen only from the chosen teams. */}
      <fieldset className="performance-choices" disabled={noTeam}>
        <legend>Representatives</legend>
        <div className="button-row">
          <button
            type="button"
            className="button button--small"
            aria-label="Select all representatives"
            onClick={() => setMembers(chosenTeams.flatMap((team) => team.members.map(lower)))}
          >
            Select All
          </button>
          <button type="button" className="button button--small" aria-label="Clear representatives" onClick={() => setMembers([])} disabled={chosenMembers.size === 0}>
            Clear
          </button>
        </div>
        {noTeam ? (
          <p className="field__hint">Select a team first.</p>
        ) : (
          <>
            <p className="field__hint">{chosenMembers.size === 0 ? 'None chosen: everyone in the chosen teams counts.' : `${chosenMembers.size} chosen.`}</p>
            {chosenTeams.map((team) => (
              <TeamRepresentatives key={team.id} team={team} chosen={chosenMembers} onToggle={toggleMember} />
            ))}
          </>
        )}
      </fieldset>

      <div className="performance-field">
        <label htmlFor={`${ids}-period`}>Period</label>
        <select
          id={`${ids}-period`}
          className="field__input"
          value={group.dateRangeType}
          onChange={(event) => dispatch(periodChanged({ id: group.id, preset: event.target.value as PeriodPreset, today: today() }))}
        >
          {PERIOD_PRESETS.map((preset) => (
            <option key={preset} value={preset}>
              {PERIOD_LABELS[preset]}
            </option>
          ))}
        </select>
        {group.dateRangeType === 'custom' ? (
          <div className="performance-custom-days">
            <div className="performance-field">
              <label htmlFor={`${ids}-from`}>From</label>
              <input
                id={`${ids}-from`}
                type="date"
                className="field__input"
                value={group.fromDate}
                onChange={(event) => dispatch(customDaysChanged({ id: group.id, fromDate: event.target.value }))}
              />
            </div>
            <div className="performance-field">
              <label htmlFor={`${ids}-to`}>To</label>
              <input
                id={`${ids}-to`}
                type="date"
                className="field__input"
                value={group.toDate}
                onChange={(event) => dispatch(customDaysChanged({ id: group.id, toDate: event.target.value }))}
              />
            </div>
          </div>
        ) : (
          <p className="field__hint">{formatPeriod(group.fromDate, group.toDate)}</p>
        )}
      </div>
    </section>
  );
}

/** The members of one chosen team, as ticks (spec part 2 §7: none shown when they cannot be read). */
function TeamRepresentatives({ team, chosen, onToggle }: { team: Team; chosen: ReadonlySet<string>; onToggle: (email: string, checked: boolean) => void }) {
  const { data, isLoading, isError } = useGetTeamMembersQuery({ id: team.id });
  const members = isError ? [] : (data ?? []);
  return (
    <div className="performance-choices__team" role="group" aria-label={`${team.name} representatives`}>
      <p className="performance-choices__team-name" aria-hidden="true">
        {team.name}
      </p>
      {isLoading ? (
        <Spinner label={`Loading ${team.name} representatives`} />
      ) : members.length === 0 ? (
        <p className="field__hint">No representatives.</p>
      ) : (
        <div className="performance-choices__list">
          {members.map((member) => (
            <label key={member.email} className="performance-choice" title={member.email}>
              <input type="checkbox" checked={chosen.has(lower(member.email))} onChange={(event) => onToggle(member.email, event.target.checked)} />
              {`${member.first_name} ${member.last_name}`.trim() || member.email}
            </label>
          ))}
        </div>
      )}
    </div>
  );
}
