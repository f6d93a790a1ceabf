/**
 * parlance.analytics.v1.DashboardService: the dashboard's leaderboard, KPIs, performance series,
 * recommendations and coaching view, for the company in the call's metadata.
 *
 * Figures come from the rollups of the caller's time zone (dashboard-rollups.ts). The first request
 * in a new zone starts building them and is answered from the activity rows meanwhile — the same
 * query over the same relation (dashboard-queries.ts), only slower.
 */
import { invalidArgument, notFound } from '@parlance/platform/errors';
import type { ServiceImplementation } from '@parlance/platform/grpc/grpc-server';
import { requireCompanyId } from '@parlance/platform/grpc/request-context';
import type { Logger } from '@parlance/platform/logger';
import type {
  CriterionFailure,
  Dataset,
  DashboardScope,
  DashboardServiceService,
  GetCoachingRequest,
  GetCoachingResponse,
  GetLeaderboardRequest,
  GetLeaderboardResponse,
  GetMetricsRequest,
  GetMetricsResponse,
  GetPerformanceRequest,
  GetPerformanceResponse,
  GetRecommendationsRequest,
  GetRecommendationsResponse,
  GroupRecommendation,
  MemberRecommendation,
  TargetStanding,
  TeamRecommendation,
} from '@parlance/proto/parlance/analytics/v1/dashboard';
import {
  failedActivityIds,
  groupedTotals,
  groupedVerdicts,
  memberFigures,
  forEachTally,
  type KnownCriterion,
  type FigureScope,
  type FigureSource,
  type GroupedVerdicts,
  type MemberFigures,
} from '../db/dashboard-queries.js';
import { ensureZoneRollups, zoneReady, type RollupDatabase } from '../db/dashboard-rollups.js';
import { companyTeams } from '../db/teams.repository.js';
import {
  addCounts,
  addVerdicts,
  averageDuration,
  averageScore,
  averageScriptMatch,
  compareText,
  conversionRate,
  METRIC_MEASURES,
  metricValue,
  NO_COUNTS,
  NO_VERDICTS,
  passRate,
  periodMetrics,
  type Counts,
  type Verdicts,
} from '../domain/dashboard-figures.js';
import {
  bucketLabel,
  bucketsBetween,
  DASHBOARD_MESSAGES,
  dayIn,
  METRIC_LABELS,
  PALETTE,
  previousRange,
  readGrouping,
  readMetrics,
  readMode,
  readRange,
  readTimeZone,
  rounded,
  verdictSubsetOf,
  workingDays,
  type DayRange,
  type Metric,
  type Mode,
} from '../domain/dashboard-request.js';
import { readDepartment, readKind } from '../domain/list-request.js';
import { failureRate, failureRates, median, mostFailedFirst, sortShort, standingOf, type Standing } from '../domain/recommendations.js';
import type { TeamState } from '../domain/team-state.js';

export interface DashboardServiceDependencies {
  database: RollupDatabase;
  logger: Logger;
  /** Where figures come from: by default the zone's rollups once built; 'rows' always counts the activities (the bench's check). */
  source?: FigureSource;
  /** Today, for the targets of periods that reach into the future. */
  now?: () => Date;
}

/** What a standing and the script match are computed from (the advice the web app words reads them). */
const RECOMMENDATION_MEASURES = ['successful', 'scored', 'score_sum', 'script_matched', 'script_match_sum'] as const;

/** A recommendation's criteria list no activities (coaching's do): one empty list, never written, shared by thousands. */
const NO_ACTIVITY_IDS = Object.freeze([]) as readonly string[] as string[];

/** Coaching lists this many of the criteria a representative fails most, each with up to `FAILED_ACTIVITIES` activities. */
const COACHING_CRITERIA = 10;
const FAILED_ACTIVITIES = 50;

export function dashboardService(dependencies: DashboardServiceDependencies): ServiceImplementation<typeof DashboardServiceService> {
  return dashboardAnswers(dependencies);
}

/** The service's methods as plain functions of their request (what tests and the bench call, in a request context). */
export function dashboardAnswers({ database, logger, source, now = () => new Date() }: DashboardServiceDependencies) {
  const { db } = database;
  const directories = new Map<string, { readAt: number; directory: Promise<TeamDirectory> }>();
  /** The company's teams and the names derived from them, read again once TEAMS_FRESH_MS old. */
  const directoryOf = (companyId: string): Promise<TeamDirectory> => {
    const held = directories.get(companyId);
    if (held && Date.now() - held.readAt < TEAMS_FRESH_MS) return held.directory;
    const directory = companyTeams(db, companyId).then(teamDirectory);
    directory.catch(() => directories.delete(companyId));
    directories.delete(companyId);
    directories.set(companyId, { readAt: Date.now(), directory });
    // The oldest read goes first (a Map keeps insertion order).
    if (directories.size > DIRECTORIES_HELD) directories.delete(directories.keys().next().value!);
    return directory;
  };

  const sourceFor = async (zone: string): Promise<FigureSource> => {
    if (source) return source;
    if (await zoneReady(db, zone)) return 'rollups';
    ensureZoneRollups(database, zone).catch((error: unknown) => logger.warn({ err: error, zone }, 'could not build the dashboard rollups of a time zone; will try again on the next request'));
    return 'rows';
  };

  /** The scope's teams: those named, else the department's, else the company's current ones. */
  const scopeOf = async (companyId: string, scope: DashboardScope | undefined) => {
    if (!scope) throw invalidArgument('scope is required.');
    const zone = readTimeZone(scope.timeZone);
    const kind = readKind(scope.kind);
    // Any case, spaces around it allowed.
    const department = readDepartment(scope.department.trim().toLowerCase());
    const range = readRange(scope.from, scope.to, zone);
    const representatives = scope.representativeEmails.map((email) => email.trim().toLowerCase()).filter((email) => email !== '');
    const mode = readMode(scope.mode, representatives.length > 0);
    const directory = await directoryOf(companyId);
    const { teams } = directory;
    const teamIds =
      scope.teamIds.length > 0
        ? [...new Set(scope.teamIds)]
        : teams.filter((team) => !team.deleted && (department === null || team.department === department)).map((team) => team.teamId);
    const figures: FigureScope = { companyId, kind, zone, teamIds, representatives: representatives.length > 0 ? representatives : null, range };
    return { figures, mode, directory, kind, zone, source: await sourceFor(zone) };
  };

  return {
    async getLeaderboard({ scope }: GetLeaderboardRequest): Promise<GetLeaderboardResponse> {
      const companyId = requireCompanyId();
      const { figures, directory, source: from } = await scopeOf(companyId, scope);
      const rows = await groupedTotals(database, from, figures, 'representative', 'quarters', { team: true, representative: true }, ['successful', 'scored', 'score_sum']);
      const names = directory.memberNames;
      return {
        rows: rows
          .map((row) => ({
            teamId: row.teamId,
            representativeName: names.get(`${row.teamId}/${row.representativeEmail}`) ?? names.get(row.representativeEmail) ?? row.representativeEmail,
            representativeEmail: row.representativeEmail,
            totalActivities: row.activities,
            successfulActivities: row.successful,
            successRate: optional(conversionRate(row)),
            averageScore: optional(averageScore(row)),
          }))
          .sort(
            (a, b) =>
              (b.successRate ?? -1) - (a.successRate ?? -1) ||
              (b.averageScore ?? -1) - (a.averageScore ?? -1) ||
              b.totalActivities - a.totalActivities ||
              a.representativeName.localeCompare(b.representativeName) ||
              compareText(a.representativeEmail, b.representativeEmail) ||
              compareText(a.teamId, b.teamId),
          ),
      };
    },

    async getMetrics({ scope }: GetMetricsRequest): Promise<GetMetricsResponse> {
      const companyId = requireCompanyId();
      const { figures, mode, source: from } = await scopeOf(companyId, scope);
      const level = mode === 'team' ? 'team' : 'representative';
      const unitsOf = async (range: DayRange) =>
        (await groupedTotals(database, from, { ...figures, range }, level, 'quarters', mode === 'team' ? { team: true } : { representative: true })) as Counts[];
      const previous = previousRange(figures.range);
      const [current, before] = await Promise.all([unitsOf(figures.range), previous ? unitsOf(previous) : Promise.resolve([])]);
      return {
        current: periodMetrics(current),
        previous: periodMetrics(before),
        currentFrom: figures.range.from ?? '',
        currentTo: figures.range.to ?? '',
        previousFrom: previous?.from ?? '',
        previousTo: previous?.to ?? '',
      };
    },

    async getPerformance({ scope, groupBy, metrics: metricNames }: GetPerformanceRequest): Promise<GetPerformanceResponse> {
      const companyId = requireCompanyId();
      const { figures, mode, directory, source: from } = await scopeOf(companyId, scope);
      const grouping = readGrouping(groupBy);
      const metrics = readMetrics(metricNames);
      const level = mode === 'team' ? 'team' : 'representative';
      const unitKey = (row: { teamId: string; representativeEmail: string }) => (mode === 'team' ? row.teamId : row.representativeEmail);
      const unitName = (key: string) => (mode === 'team' ? (directory.teamNames.get(key) ?? key) : (directory.memberNames.get(key) ?? key));

      if (grouping === 'parameter') {
        const subset = verdictSubsetOf(metrics);
        const subsetColumns = { successful: ['passed_successful', 'failed_successful'], unsuccessful: ['passed_unsuccessful', 'failed_unsuccessful'], all: [] } as const;
        const rows = await groupedVerdicts(database, from, figures, level, 'quarters', mode === 'team' ? { team: true } : { representative: true }, subsetColumns[subset]);
        const byUnit = new Map<string, Map<string, Verdicts>>();
        const labels = orderedCriterionLabels(directory, figures.teamIds, rows);
        for (const row of rows) {
          const perCriterion = byUnit.get(unitKey(row)) ?? new Map<string, Verdicts>();
          byUnit.set(unitKey(row), perCriterion);
          const label = directory.criterionName(row.teamId, row.groupId, row.criterionId);
          perCriterion.set(label, addVerdicts(perCriterion.get(label) ?? NO_VERDICTS, row));
        }
        const units = unitsOf(mode, figures, byUnit.keys(), unitName);
        const datasets = units.map((unit, index) =>
          dataset(unitName(unit), unit, metrics[0]!, index, labels.map((label) => passRate(byUnit.get(unit)?.get(label) ?? NO_VERDICTS, subset))),
        );
        return { labels, datasets };
      }

      const rows = await groupedTotals(
        database,
        from,
        figures,
        level,
        grouping === 'month' ? 'months' : 'days',
        { ...(mode === 'team' ? { team: true } : { representative: true }), bucket: grouping },
        metrics.flatMap((metric) => METRIC_MEASURES[metric]),
      );
      const byUnit = new Map<string, Map<string, Counts>>();
      for (const row of rows) {
        const perBucket = byUnit.get(unitKey(row)) ?? new Map<string, Counts>();
        byUnit.set(unitKey(row), perBucket);
        // A representative in two teams has two rows in a bucket; most buckets have one.
        const held = perBucket.get(row.bucket);
        perBucket.set(row.bucket, held ? addCounts(held, row) : row);
      }
      // An open end reaches the first or last bucket with figures.
      const seen = figures.range.from === null || figures.range.to === null ? rows.map((row) => row.bucket).sort() : [];
      const first = figures.range.from ?? seen[0];
      const last = figures.range.to ?? seen[seen.length - 1];
      const buckets = first && last ? bucketsBetween(first, last, grouping) : [];
      const units = unitsOf(mode, figures, byUnit.keys(), unitName);
      const datasets: Dataset[] = [];
      for (const metric of metrics) {
        for (const unit of units) {
          const label = metrics.length > 1 ? `${unitName(unit)} - ${METRIC_LABELS[metric]}` : unitName(unit);
          const values = buckets.map((bucket) => metricValue(byUnit.get(unit)?.get(bucket) ?? NO_COUNTS, metric));
          datasets.push(dataset(label, unit, metric, datasets.length, values));
        }
      }
      return { labels: buckets.map((bucket) => bucketLabel(bucket, grouping)), datasets };
    },

    async getRecommendations({ groups, kind, timeZone }: GetRecommendationsRequest): Promise<GetRecommendationsResponse> {
      const companyId = requireCompanyId();
      const zone = readTimeZone(timeZone);
      const kindName = readKind(kind);
      if (groups.length === 0) throw invalidArgument('filterGroups must hold at least one filter group.');
      const directory = await directoryOf(companyId);
      const { teams } = directory;
      const from = await sourceFor(zone);
      const today = dayIn(now(), zone);
      const answers = await Promise.all(
        groups.map(async (group, index): Promise<GroupRecommendation> => {
          const range = readRange(group.from, group.to, zone, { from: `filterGroups[${index}].fromDate`, to: `filterGroups[${index}].toDate` });
          if (range.from === null || range.to === null) throw invalidArgument(DASHBOARD_MESSAGES.groupRange(index));
          const mode = readMode(group.mode, group.memberEmails.length > 0, DASHBOARD_MESSAGES.groupMode(index));
          const days = workingDays(range.from, range.to, today);
          const chosen = new Set(group.memberEmails);
          const groupTeams = group.teamIds.map((teamId) => {
            const team = teams.find((candidate) => candidate.teamId === teamId);
            // Representative mode counts only the members chosen (all when none is).
            const members = (team?.members ?? []).filter((member) => mode === 'team' || chosen.size === 0 || chosen.has(member.email));
            return { teamId, team, members };
          });
          // With members chosen, each team reads its own of them and nothing else.
          const representativesByTeam =
            mode === 'representative' && chosen.size > 0 ? Object.fromEntries(groupTeams.map(({ teamId, members }) => [teamId, members.map((member) => member.email)])) : undefined;
          const figures = {
            companyId,
            kind: kindName,
            zone,
            teamIds: group.teamIds,
            representatives: representativesByTeam ? [...chosen] : null,
            representativesByTeam,
            range,
          } satisfies FigureScope;
          // The teams' criteria, which the figures name by position.
          const known = groupTeams.flatMap(({ teamId, team }) => (team?.criteria ?? []).map((criterion) => ({ teamId, ...criterion })));
          const figuresOf = groupFigures(await memberFigures(database, from, figures, mode === 'team', RECOMMENDATION_MEASURES, known), known);
          const teamAnswers = groupTeams.map(({ teamId, team, members }) => teamRecommendation(teamId, team, members, mode, days, figuresOf, directory.criterionName));
          return { groupId: group.id, groupName: group.name, from: range.from, to: range.to, workingDays: days, teams: teamAnswers };
        }),
      );
      return { groups: answers };
    },

    async getCoaching({ representativeEmail, kind, from: fromDay, to: toDay, timeZone }: GetCoachingRequest): Promise<GetCoachingResponse> {
      const companyId = requireCompanyId();
      const email = representativeEmail.trim().toLowerCase();
      if (email === '') throw invalidArgument(DASHBOARD_MESSAGES.email);
      const zone = readTimeZone(timeZone);
      const kindName = readKind(kind);
      const range = readRange(fromDay, toDay, zone);
      const { teams, criterionName } = await directoryOf(companyId);
      const from = await sourceFor(zone);
      const own: FigureScope = { companyId, kind: kindName, zone, teamIds: null, representatives: [email], range };
      const [ownTeams, trendRows, verdictRows] = await Promise.all([
        groupedTotals(database, from, own, 'representative', 'quarters', { team: true }),
        groupedTotals(database, from, own, 'representative', 'days', { bucket: 'week' }),
        groupedVerdicts(database, from, own, 'representative', 'quarters', { team: true }, []),
      ]);
      const memberOf = teams.filter((team) => !team.deleted && team.members.some((member) => member.email === email));
      const teamIds = [...new Set([...memberOf.map((team) => team.teamId), ...ownTeams.map((row) => row.teamId)])];
      if (teamIds.length === 0) throw notFound(`No activities or team membership for ${email}.`);
      const member = memberOf.flatMap((team) => team.members).find((candidate) => candidate.email === email);
      const name = member ? `${member.firstName} ${member.lastName}`.trim() : email;

      const failures = failureRates(
        verdictRows.map((row) => ({
          criterionName: criterionName(row.teamId, row.groupId, row.criterionId),
          failed: row.failed,
          judged: row.passed + row.failed,
          row,
        })),
      )
        .filter((failure) => failure.failed > 0)
        .slice(0, COACHING_CRITERIA);
      const failedCriteria = await Promise.all(
        failures.map(async (failure) => {
          const { row } = failure;
          const ids = await failedActivityIds(db, { companyId, kind: kindName, zone, range, teamId: row.teamId, representative: email }, row, FAILED_ACTIVITIES);
          return { ...criterionFailure(failure, row), failedActivityIds: ids };
        }),
      );

      // Every member of their teams (them included), with what they did in the period.
      const teamRows = await groupedTotals(database, from, { companyId, kind: kindName, zone, teamIds, representatives: null, range }, 'representative', 'quarters', { representative: true });
      const colleagues = new Map<string, Counts>(teamRows.map((row) => [row.representativeEmail, row]));
      for (const team of memberOf) for (const colleague of team.members) if (!colleagues.has(colleague.email)) colleagues.set(colleague.email, NO_COUNTS);
      const mine = ownTeams.reduce<Counts>(addCounts, NO_COUNTS);
      const statistic = (metric: string, value: (counts: Counts) => number | null) => {
        const values = [...colleagues.values()].map(value).filter((entry): entry is number => entry !== null);
        const own = value(mine);
        const middle = median(values);
        return { metric, value: own === null ? undefined : rounded(own), teamMedian: middle === null ? undefined : rounded(middle) };
      };
      return {
        email,
        name,
        teamIds,
        from: range.from ?? '',
        to: range.to ?? '',
        // In week order, as the rows come.
        trend: trendRows.map((row) => ({ week: row.bucket, averageScore: optional(averageScore(row)), activities: row.activities })),
        failedCriteria,
        statistics: [
          statistic('total_activities', (counts) => counts.activities),
          statistic('conversion_rate', conversionRate),
          statistic('average_score', averageScore),
          statistic('script_match', averageScriptMatch),
          statistic('average_duration', averageDuration),
        ],
      };
    },
  };
}

const optional = (value: number | null): number | undefined => (value === null ? undefined : rounded(value));

function dataset(label: string, seriesKey: string, metric: Metric, index: number, values: (number | null)[]): Dataset {
  return { label, seriesKey, metric, color: PALETTE[index % PALETTE.length]!, data: values.map((value) => (value === null ? {} : { value })) };
}

/**
 * The series of a chart: the teams of the scope in team mode; in representative mode the
 * representatives asked for, else everyone with figures, by name.
 */
function unitsOf(mode: Mode, figures: FigureScope, withFigures: Iterable<string>, nameOf: (key: string) => string): string[] {
  if (mode === 'team') return [...(figures.teamIds ?? [...withFigures])];
  if (figures.representatives) return [...figures.representatives];
  return [...withFigures].sort((a, b) => nameOf(a).localeCompare(nameOf(b)) || a.localeCompare(b));
}

/** A team's criterion with its name there. */
type NamedCriterion = KnownCriterion & { name: string };

/** Teams change seldom; the dashboard reads a company's again once this old. */
const TEAMS_FRESH_MS = 5_000;
const DIRECTORIES_HELD = 1_000;

/** A company's teams, and the names the answers give series, representatives and criteria. */
interface TeamDirectory {
  teams: TeamState[];
  teamNames: Map<string, string>;
  /** "First Last" by `team/email` and by e-mail alone (a member's name in any team). */
  memberNames: Map<string, string>;
  /** A verdict's criterion by name: its team's name for it, else any team's, else its id. */
  criterionName(teamId: string, groupId: string, criterionId: string): string;
}

function teamDirectory(teams: TeamState[]): TeamDirectory {
  const memberNames = new Map<string, string>();
  // Nested by team ('*' for any), group and criterion: looked up thousands of times a request, where keys joined from three ids cost a string each.
  const criterionNames = new Map<string, Map<string, Map<string, string>>>();
  const nameCriterion = (teamId: string, groupId: string, criterionId: string, name: string) => {
    const team = criterionNames.get(teamId) ?? new Map<string, Map<string, string>>();
    criterionNames.set(teamId, team);
    const group = team.get(groupId) ?? new Map<string, string>();
    team.set(groupId, group);
    if (teamId !== '*' || !group.has(criterionId)) group.set(criterionId, name);
  };
  for (const team of teams) {
    for (const member of team.members) {
      const name = `${member.firstName} ${member.lastName}`.trim() || member.email;
      memberNames.set(`${team.teamId}/${member.email}`, name);
      if (!team.deleted || !memberNames.has(member.email)) memberNames.set(member.email, name);
    }
    for (const criterion of team.criteria) {
      nameCriterion(team.teamId, criterion.groupId, criterion.criterionId, criterion.name);
      nameCriterion('*', criterion.groupId, criterion.criterionId, criterion.name);
    }
  }
  return {
    teams,
    teamNames: new Map(teams.map((team) => [team.teamId, team.name])),
    memberNames,
    criterionName: (teamId, groupId, criterionId) =>
      criterionNames.get(teamId)?.get(groupId)?.get(criterionId) ?? criterionNames.get('*')?.get(groupId)?.get(criterionId) ?? criterionId,
  };
}

/** The criteria labels of a by-parameter chart: the scope's teams' criteria in their order, then any others judged. */
function orderedCriterionLabels({ teams, criterionName }: TeamDirectory, teamIds: readonly string[] | null, rows: readonly GroupedVerdicts[]): string[] {
  const labels = new Set<string>();
  const judged = new Set(rows.map((row) => criterionName(row.teamId, row.groupId, row.criterionId)));
  for (const team of teams) {
    if (teamIds && !teamIds.includes(team.teamId)) continue;
    for (const criterion of team.criteria) if (judged.has(criterion.name)) labels.add(criterion.name);
  }
  for (const label of [...judged].sort()) labels.add(label);
  return [...labels];
}

function targetStanding(standing: Standing, scored: number): TargetStanding {
  return {
    target: standing.target,
    successfulCalls: standing.successfulCalls,
    totalCalls: standing.totalCalls,
    conversionRate: rounded(standing.conversionRate),
    averageScore: rounded(standing.averageScore),
    onTarget: standing.onTarget,
    additionalNeeded: standing.additionalNeeded === null ? undefined : standing.additionalNeeded,
    requiredConversionRate: rounded(standing.requiredConversionRate),
    requiredAverageScore: rounded(standing.requiredAverageScore),
    scoredCalls: scored,
  };
}

function criterionFailure(failure: { criterionName: string; failureRate: number; failed: number; judged: number }, row: { teamId: string; groupId: string; criterionId: string }) {
  return {
    criterionName: failure.criterionName,
    failureRate: rounded(failure.failureRate),
    failed: failure.failed,
    judged: failure.judged,
    groupId: row.groupId,
    criterionId: row.criterionId,
    teamId: row.teamId,
    failedActivityIds: [] as string[],
  };
}

/** A filter group's rows indexed by team and member, so each team and member finds its own at once. */
function groupFigures(rows: readonly MemberFigures[], known: readonly NamedCriterion[]) {
  const teams = new Map<string, Counts>();
  const teamMembers = new Map<string, Map<string, MemberFigures>>();
  for (const row of rows) {
    if (row.representativeEmail === '*') {
      teams.set(row.teamId, row);
      continue;
    }
    const held = teamMembers.get(row.teamId);
    if (held) held.set(row.representativeEmail, row);
    else teamMembers.set(row.teamId, new Map([[row.representativeEmail, row]]));
  }
  const NONE = new Map<string, MemberFigures>();
  return {
    member: (teamId: string, email: string): MemberFigures | undefined => teamMembers.get(teamId)?.get(email),
    team: (teamId: string): Counts => teams.get(teamId) ?? NO_COUNTS,
    /** Every representative's figures in the team, listed members or not. */
    teamMembers: (teamId: string): ReadonlyMap<string, MemberFigures> => teamMembers.get(teamId) ?? NONE,
    /** The criteria the members' tallies name by position. */
    known,
  };
}

function teamRecommendation(
  teamId: string,
  team: TeamState | undefined,
  members: TeamState['members'],
  mode: Mode,
  days: number,
  figures: ReturnType<typeof groupFigures>,
  criterionName: TeamDirectory['criterionName'],
): TeamRecommendation {
  // A criterion the tallies name by position has its name there; one no longer in the team, the directory's.
  const nameOf = (known: NamedCriterion | undefined, groupId: string, criterionId: string) => (known ? known.name : criterionName(teamId, groupId, criterionId));
  const memberAnswers: MemberRecommendation[] = members.map((member) => {
    const own = figures.member(teamId, member.email);
    const counts = own ?? NO_COUNTS;
    const standing = standingOf({ target: member.target * days, successful: counts.successful, total: counts.activities, averageScore: averageScore(counts) ?? 0 });
    // Built once in the answer's shape (a request lists thousands), rates rounded once sorted.
    const criteria: CriterionFailure[] = [];
    forEachTally(own?.criteria ?? [], figures.known, (known, groupId, criterionId, passed, failed) => {
      const judged = passed + failed;
      if (judged === 0) return;
      criteria.push({ criterionName: nameOf(known, groupId, criterionId), failureRate: failureRate(failed, judged), failed, judged, groupId, criterionId, teamId, failedActivityIds: NO_ACTIVITY_IDS });
    });
    // Ties broken by the ids: the criteria come in no particular order.
    sortShort(criteria, (a, b) => mostFailedFirst(a, b) || compareText(a.groupId, b.groupId) || compareText(a.criterionId, b.criterionId));
    for (const criterion of criteria) criterion.failureRate = rounded(criterion.failureRate);
    return {
      firstName: member.firstName,
      lastName: member.lastName,
      email: member.email,
      standing: targetStanding(standing, counts.scored),
      scriptMatch: optional(averageScriptMatch(counts)),
      criteria,
    };
  });
  const teamCounts = mode === 'team' ? figures.team(teamId) : members.reduce<Counts>((sum, member) => addCounts(sum, figures.member(teamId, member.email) ?? NO_COUNTS), NO_COUNTS);
  const target = members.reduce((sum, member) => sum + member.target, 0) * days;
  const standing = standingOf({ target, successful: teamCounts.successful, total: teamCounts.activities, averageScore: averageScore(teamCounts) ?? 0 });
  // The team's criteria: all its representatives' in team mode, the members listed' in representative mode.
  const counted = mode === 'team' ? figures.teamMembers(teamId).values() : members.map((member) => figures.member(teamId, member.email));
  const teamVerdicts = new Map<string, { criterionName: string; failed: number; judged: number }>();
  for (const representative of counted) {
    if (!representative) continue;
    forEachTally(representative.criteria, figures.known, (known, groupId, criterionId, passed, failed) => {
      const name = nameOf(known, groupId, criterionId);
      const held = teamVerdicts.get(name);
      if (held) {
        held.failed += failed;
        held.judged += passed + failed;
      } else teamVerdicts.set(name, { criterionName: name, failed, judged: passed + failed });
    });
  }
  return {
    teamId,
    teamName: team?.name ?? teamId,
    standing: targetStanding(standing, teamCounts.scored),
    members: memberAnswers,
    scriptMatch: optional(averageScriptMatch(teamCounts)),
    criteria: failureRates([...teamVerdicts.values()]).map((criterion) => ({ ...criterion, failureRate: rounded(criterion.failureRate) })),
  };
}
