import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import { Modal } from '../../components/modal';
import { Spinner } from '../../components/spinner';
import { useDeleteTeamMutation, useFetchTeamsQuery, type Team } from '../../lib/api/gateway-api.generated';
import { selectAuthStatus, selectCompany, selectUser } from '../../lib/auth/auth-slice';
import { selectActiveDepartment } from '../../lib/auth/department-slice';
import { TeamListItem } from './team-list-item';
import { useTeamDuplicator } from './use-team-duplicator';
import './teams.css';

export const FETCH_TEAMS_FAILED = 'Error fetching teams. Please try again.';
export const REMOVE_FAILED = 'Error removing team. Please try again.';
export const NO_TEAMS = 'No teams found for this department. Click "Add Team" to create one.';

/** /teams (spec part 1 §2): the current department's teams, with edit, duplicate and delete. */
export function TeamManagementPage() {
  const status = useAppSelector(selectAuthStatus);
  const user = useAppSelector(selectUser);
  const company = useAppSelector(selectCompany);
  if (status !== 'authenticated' || !user || !company) {
    return (
      <div className="page">
        <h1>Team Management</h1>
        <p>Please log in to manage criteria</p>
      </div>
    );
  }
  return <TeamManagement />;
}

function TeamManagement() {
  const company = useAppSelector(selectCompany);
  const department = useAppSelector(selectActiveDepartment);
  const { data, isLoading, isError, error } = useFetchTeamsQuery({ department: department ?? undefined }, { skip: !department });
  const [expandedId, setExpandedId] = useState<string | null>(null);
  // Deleted teams leave the list at once, before the reloaded list arrives.
  const [deletedIds, setDeletedIds] = useState<ReadonlySet<string>>(() => new Set());
  const [toDelete, setToDelete] = useState<Team | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [deleteTeam, { isLoading: deleting }] = useDeleteTeamMutation();
  const { duplicate, duplicating } = useTeamDuplicator(company !== null);

  useEffect(() => {
    if (isError) window.alert(FETCH_TEAMS_FAILED);
  }, [isError, error]);

  // The server lists the department's teams only; the filter keeps the list right regardless.
  const teams = isError ? [] : (data ?? []).filter((team) => team.department === department && !deletedIds.has(team.id));

  const confirmDelete = async () => {
    if (!company || !toDelete) return;
    try {
      await deleteTeam({ id: toDelete.id }).unwrap();
      const removed = toDelete.id;
      setDeletedIds((ids) => new Set(ids).add(removed));
      setConfirmOpen(false);
    } catch {
      window.alert(REMOVE_FAILED);
    }
  };

  return (
    <div className="page teams-page">
      <div className="page__header">
        <h1>Team Management</h1>
        <Link to="/teams/new" className="button button--primary">
          Add Team
        </Link>
      </div>

      <h2>Existing Teams</h2>
      {isLoading ? (
        <p>
          <Spinner label="Loading teams" />
        </p>
      ) : teams.length === 0 ? (
        <p className="teams-empty">{NO_TEAMS}</p>
      ) : (
        <ul className="teams-accordion">
          {teams.map((team) => (
            <TeamListItem
              key={team.id}
              team={team}
              expanded={expandedId === team.id}
              duplicating={duplicating.has(team.id)}
              onToggle={() => setExpandedId((open) => (open === team.id ? null : team.id))}
              onDuplicate={() => void duplicate(team)}
              onRemove={() => {
                if (!company) return;
                setToDelete(team);
                setConfirmOpen(true);
              }}
            />
          ))}
        </ul>
      )}

      <Modal
        open={confirmOpen}
        title="Confirm Deletion"
        onClose={() => setConfirmOpen(false)}
        onClosed={() => setToDelete(null)}
        footer={
          <>
            <button type="button" className="button" onClick={() => setConfirmOpen(false)}>
              Cancel
            </button>
            <button type="button" className="button button--danger" disabled={deleting} onClick={() => void confirmDelete()}>
              Delete Team
            </button>
          </>
        }
      >
        <p>{`Are you sure you want to delete the team "${toDelete?.name ?? ''}"? This action cannot be undone.`}</p>
      </Modal>
    </div>
  );
}
