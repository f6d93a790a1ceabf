import { useId } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../components/spinner';
import { useGetTeamMembersQuery, type Team } from '../../lib/api/gateway-api.generated';

type TeamListItemProps = {
  team: Team;
  expanded: boolean;
  duplicating: boolean;
  onToggle: () => void;
  onDuplicate: () => void;
  onRemove: () => void;
};

/** One team of the 'Existing Teams' accordion: a header button, its actions and, open, its criteria and members. */
export function TeamListItem({ team, expanded, duplicating, onToggle, onDuplicate, onRemove }: TeamListItemProps) {
  const panelId = useId();
  return (
    <li className={`teams-accordion__item${expanded ? ' teams-accordion__item--open' : ''}`}>
      <div className="teams-accordion__header">
        <h3 className="teams-accordion__heading">
          <button type="button" className="teams-accordion__toggle" aria-expanded={expanded} aria-controls={panelId} onClick={onToggle}>
            <span className="teams-accordion__chevron" aria-hidden="true" />
            <span>{team.name}</span>
          </button>
        </h3>
        <div className="button-row teams-accordion__actions">
          <Link to={`/teams/${encodeURIComponent(team.id)}`} className="button button--small" aria-label={`Edit ${team.name}`}>
            Edit
          </Link>
          <button
            type="button"
            className="button button--small"
            disabled={duplicating}
            aria-label={duplicating ? undefined : `Duplicate ${team.name}`}
            onClick={onDuplicate}
          >
            {duplicating ? (
              <>
                <Spinner /> Duplicating...
              </>
            ) : (
              'Duplicate'
            )}
          </button>
          <button type="button" className="button button--small button--danger" aria-label={`Remove ${team.name}`} onClick={onRemove}>
            Remove
          </button>
        </div>
      </div>
      {expanded ? (
        <div id={panelId} className="teams-accordion__panel">
          <TeamDetails team={team} />
        </div>
      ) : null}
    </li>
  );
}

function TeamDetails({ team }: { team: Team }) {
  // Spec part 1 §8: on this screen a failed member fetch is silent and shows no members.
  const { data, isError } = useGetTeamMembersQuery({ id: team.id });
  const members = isError ? [] : (data ?? []);
  return (
    <>
      {team.criteria_group.length === 0 ? (
        <p className="teams-muted">No criteria groups yet.</p>
      ) : (
        <div className="teams-group-cards">
          {team.criteria_group.map((group) => (
            <section key={group.id} className="card teams-group-card" aria-label={group.name || 'Unnamed group'}>
              <h4 className="teams-group-card__title">{group.name}</h4>
              <ul className="teams-group-card__criteria">
                {group.criteria.map((criterion) => (
                  <li key={criterion.id} className="teams-group-card__criterion">
                    <span>{criterion.name}</span>
                    <span className="badge badge--primary" aria-label={`Weight ${criterion.weight}`}>
                      {criterion.weight}
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
      {members.length > 0 ? (
        <section className="teams-members" aria-label="Members">
          <h4 className="teams-members__title">Members</h4>
          <ul className="teams-members__list">
            {members.map((member, index) => (
              <li key={`${member.email}-${index}`} className="badge badge--info">
                {`${member.first_name} ${member.last_name}`}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
