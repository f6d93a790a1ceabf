import { useCallback, useEffect, useRef, useState } from 'react';
import { useSaveTeamMutation, type Team } from '../../lib/api/gateway-api.generated';
import { DuplicateLock } from './duplicate-lock';
import { editorTeamOf, saveTeamArg } from './team-payload';
import { duplicateOf } from './team-rules';

export const DUPLICATE_FAILED = 'Error duplicating team. Please try again.';

/**
 * Duplicating a team from the list (spec part 1 §4, §5, §9): a save of the copy with isNew true
 * and no members, refused while the DuplicateLock blocks it. The list reloads by itself: the save
 * invalidates the 'teams' tag. `duplicating` holds the teams whose copy this view is saving.
 */
export function useTeamDuplicator(enabled: boolean) {
  const lock = useRef<DuplicateLock | null>(null);
  const [duplicating, setDuplicating] = useState<ReadonlySet<string>>(() => new Set());
  const [saveTeam] = useSaveTeamMutation();

  const lockOf = () => (lock.current ??= new DuplicateLock());

  useEffect(() => {
    const current = lockOf();
    current.removeStale();
    const clear = () => current.clearAll();
    const onVisible = () => {
      if (document.visibilityState === 'visible') clear();
    };
    window.addEventListener('beforeunload', clear);
    window.addEventListener('pagehide', clear);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.removeEventListener('beforeunload', clear);
      window.removeEventListener('pagehide', clear);
      document.removeEventListener('visibilitychange', onVisible);
      clear();
    };
  }, []);

  const duplicate = useCallback(
    async (team: Team) => {
      if (!enabled) return;
      const current = lockOf();
      if (!current.begin(team.id)) return;
      setDuplicating((running) => new Set(running).add(team.id));
      try {
        await saveTeam(saveTeamArg(duplicateOf(editorTeamOf(team)), true, [])).unwrap();
      } catch {
        window.alert(DUPLICATE_FAILED);
      } finally {
        current.end(team.id);
        setDuplicating((running) => {
          const next = new Set(running);
          next.delete(team.id);
          return next;
        });
      }
    },
    [enabled, saveTeam],
  );

  return { duplicate, duplicating };
}
