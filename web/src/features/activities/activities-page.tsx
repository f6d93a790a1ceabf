import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import { Spinner } from '../../components/spinner';
import { selectActiveDepartment } from '../../lib/auth/department-slice';
import { ActivityTabs } from '../../components/activity-tabs';
import { activitySelection, CALL_ID_PARAM, idParamOf, idsParam, MEETING_ID_PARAM, type ActivityTab } from './activity-ids';
import { DateRangePicker, type DateRangeChange } from '../../components/date-range/date-range-picker';
import { CallsList } from './list/calls-list';
import { MeetingsList } from './list/meetings-list';
import type { ActivityCall, ActivityMeeting } from './activity-types';
import { CallSummaryDialog } from './summary/call-summary-dialog';
import { MeetingSummaryDialog } from './summary/meeting-summary-dialog';
import { UploadCallsDialog } from './upload/upload-calls-dialog';
import { UploadMeetingsDialog } from './upload/upload-meetings-dialog';
import { useDepartmentTeams } from '../../lib/use-department-teams';
import './activities.css';

export const NO_TEAM = 'No team selected. Please create a team to view activities.';
/** Spec part 2 §4, §9: after an upload of the page's team, the list is read again 3 s later. */
export const REFRESH_AFTER_UPLOAD_MS = 3000;

/**
 * /activities (spec part 2 §2.1): the calls or meetings of one team of the current department in
 * a date range. callId / meetingId in the URL choose the tab and pre-filter the list.
 */
export function ActivitiesPage() {
  const department = useAppSelector(selectActiveDepartment);
  const [searchParams, setSearchParams] = useSearchParams();
  const selection = activitySelection(searchParams);
  const [tab, setTab] = useState<ActivityTab>(selection.tab);

  // A link opened while on this screen (another callId or meetingId) chooses its tab again; the
  // URL this screen writes itself (the Id filter) does not.
  const urlKey = searchParams.toString();
  const ownUrl = useRef(urlKey);
  useEffect(() => {
    if (ownUrl.current === urlKey) return;
    ownUrl.current = urlKey;
    const params = new URLSearchParams(urlKey);
    if (params.has(CALL_ID_PARAM) || params.has(MEETING_ID_PARAM)) setTab(activitySelection(params).tab);
  }, [urlKey]);

  const changeIds = (ids: string[]) => {
    const next = new URLSearchParams(searchParams);
    const value = idsParam(ids);
    if (value === null) next.delete(idParamOf(tab));
    else next.set(idParamOf(tab), value);
    ownUrl.current = next.toString();
    setSearchParams(next, { replace: true });
  };

  const { teams, isLoading: teamsLoading, isError: teamsFailed } = useDepartmentTeams();
  const departmentTeams = teamsFailed ? [] : teams;
  const [chosenTeamId, setChosenTeamId] = useState<string | null>(null);
  const team = departmentTeams.find((entry) => entry.id === chosenTeamId) ?? departmentTeams[0] ?? null;

  const [range, setRange] = useState<{ start: Date; end: Date } | null>(null);
  const onRange = useCallback((change: DateRangeChange) => setRange({ start: change.start, end: change.end }), []);

  const [uploading, setUploading] = useState<ActivityTab | null>(null);
  const [callSummary, setCallSummary] = useState<ActivityCall | null>(null);
  const [meetingSummary, setMeetingSummary] = useState<ActivityMeeting | null>(null);
  const [refreshSignal, setRefreshSignal] = useState(0);
  const teamIdNow = useRef<string | null>(null);
  teamIdNow.current = team?.id ?? null;
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => clearTimeout(timer));
  }, []);
  const onUploadsFinished = useCallback((teamId: string) => {
    if (teamId !== teamIdNow.current) return;
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      if (teamIdNow.current === teamId) setRefreshSignal((signal) => signal + 1);
    }, REFRESH_AFTER_UPLOAD_MS);
    timers.current.add(timer);
  }, []);

  const teamSelectId = useId();

  const ids = tab === 'calls' ? selection.callIds : selection.meetingIds;
  const listProps = team && range ? { team, department, range, ids, onIdsChange: changeIds, refreshSignal } : null;

  return (
    <div className="page activities-page">
      <div className="page__header">
        <h1>Activities</h1>
      </div>

      <ActivityTabs value={tab} onChange={setTab}>
        <div className="activities-toolbar">
          <div className="activities-toolbar__field">
            <label htmlFor={teamSelectId}>Team</label>
            <select
              id={teamSelectId}
              className="field__input"
              value={team?.id ?? ''}
              disabled={departmentTeams.length === 0}
              onChange={(event) => setChosenTeamId(event.target.value)}
            >
              {departmentTeams.length === 0 ? <option value="">No teams</option> : null}
              {departmentTeams.map((entry) => (
                <option key={entry.id} value={entry.id}>
                  {entry.name}
                </option>
              ))}
            </select>
          </div>
          <DateRangePicker start={range?.start ?? null} end={range?.end ?? null} onChange={onRange} />
          <div className="activities-toolbar__actions">
            <button type="button" className="button button--primary" onClick={() => setUploading(tab)}>
              {tab === 'calls' ? 'Upload Calls' : 'Upload Meetings'}
            </button>
          </div>
        </div>

        {teamsLoading ? (
          <p>
            <Spinner label="Loading teams" />
          </p>
        ) : !team ? (
          <p className="card activities-no-team">{NO_TEAM}</p>
        ) : listProps === null ? null : tab === 'calls' ? (
          <CallsList key={`calls-${team.id}`} {...listProps} onSummary={setCallSummary} />
        ) : (
          <MeetingsList key={`meetings-${team.id}`} {...listProps} onSummary={setMeetingSummary} />
        )}
      </ActivityTabs>

      <UploadCallsDialog open={uploading === 'calls'} onClose={() => setUploading(null)} onUploadsFinished={onUploadsFinished} />
      <UploadMeetingsDialog open={uploading === 'meetings'} onClose={() => setUploading(null)} onUploadsFinished={onUploadsFinished} />
      <CallSummaryDialog call={callSummary} onClose={() => setCallSummary(null)} />
      <MeetingSummaryDialog meeting={meetingSummary} onClose={() => setMeetingSummary(null)} />
    </div>
  );
}
