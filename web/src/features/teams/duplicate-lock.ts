/**
 * Duplicate blocking for the team list (spec part 1 §3, §5 and §9). A duplicate of a team is
 * refused while
 *   - one for the same team is already running in this view (an in-memory flag),
 *   - the global marker for that team (local storage, shared by every tab) is younger than 8 s, or
 *   - a session marker for that team (session storage, this tab) exists.
 *
 * Lifetime of the markers, as decided here:
 *   - `begin` writes both markers and raises the in-view flag.
 *   - `end` lowers the in-view flag and removes this view's session marker: the tab's own
 *     duplicate is over. The global marker stays, so a repeated click or another tab is still
 *     refused until it is 8 s old; `removeStale` deletes it once it is older than 10 s.
 *   - `clearAll` (called on page unload, when the page becomes visible again and on leaving the
 *     screen) removes every session marker of this feature and the global markers this view
 *     wrote. Other tabs' global markers are left alone: clearing them whenever a tab became
 *     visible would undo the cross-tab guard.
 * Storage that throws (private modes, full quota) is ignored: the in-view flag still holds.
 */

/** The part of the Web Storage API the lock uses; localStorage and sessionStorage fit. */
export type MarkerStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

export type DuplicateLockOptions = {
  local?: MarkerStorage;
  session?: MarkerStorage;
  now?: () => number;
};

/** A global marker younger than this blocks a duplicate of the same team. */
export const DUPLICATE_LOCK_MS = 8000;
/** Global markers older than this are removed. */
export const STALE_MARKER_MS = 10000;

const GLOBAL_PREFIX = 'team-duplicate-global:';
const SESSION_PREFIX = 'team-duplicate-session:';

export const globalMarkerKey = (teamId: string) => `${GLOBAL_PREFIX}${teamId}`;
export const sessionMarkerKey = (teamId: string) => `${SESSION_PREFIX}${teamId}`;

export class DuplicateLock {
  private readonly local: MarkerStorage;
  private readonly session: MarkerStorage;
  private readonly now: () => number;
  /** Teams with a duplicate running in this view. */
  private readonly running = new Set<string>();
  /** Teams whose global marker this view wrote. */
  private readonly written = new Set<string>();

  constructor(options: DuplicateLockOptions = {}) {
    this.local = options.local ?? window.localStorage;
    this.session = options.session ?? window.sessionStorage;
    this.now = options.now ?? Date.now;
  }

  /** Whether a duplicate of this team would be refused now. */
  isBlocked(teamId: string): boolean {
    if (this.running.has(teamId)) return true;
    const age = this.globalMarkerAge(teamId);
    if (age !== undefined && age < DUPLICATE_LOCK_MS) return true;
    return attempt(() => this.session.getItem(sessionMarkerKey(teamId))) != null;
  }

  /** Starts a duplicate: false when it is blocked, otherwise marks the team and returns true. */
  begin(teamId: string): boolean {
    if (this.isBlocked(teamId)) return false;
    this.running.add(teamId);
    const at = String(this.now());
    attempt(() => this.local.setItem(globalMarkerKey(teamId), at));
    attempt(() => this.session.setItem(sessionMarkerKey(teamId), at));
    this.written.add(teamId);
    return true;
  }

  /** Ends this view's duplicate of the team (success or failure); see the file comment. */
  end(teamId: string): void {
    if (!this.running.delete(teamId)) return;
    attempt(() => this.session.removeItem(sessionMarkerKey(teamId)));
  }

  /** Whether this view is running a duplicate of the team (for the button's spinner). */
  isRunning(teamId: string): boolean {
    return this.running.has(teamId);
  }

  /** Removes every session marker and the global markers this view wrote. */
  clearAll(): void {
    for (const key of keysWithPrefix(this.session, SESSION_PREFIX)) attempt(() => this.session.removeItem(key));
    for (const teamId of this.written) attempt(() => this.local.removeItem(globalMarkerKey(teamId)));
    this.written.clear();
  }

  /** Removes global markers (from any tab) older than 10 s, or unreadable. */
  removeStale(): void {
    const now = this.now();
    for (const key of keysWithPrefix(this.local, GLOBAL_PREFIX)) {
      const at = Number(attempt(() => this.local.getItem(key)));
      if (!Number.isFinite(at) || now - at > STALE_MARKER_MS) attempt(() => this.local.removeItem(key));
    }
  }

  private globalMarkerAge(teamId: string): number | undefined {
    const value = attempt(() => this.local.getItem(globalMarkerKey(teamId)));
    if (value == null) return undefined;
    const at = Number(value);
    return Number.isFinite(at) ? this.now() - at : undefined;
  }
}

function keysWithPrefix(storage: MarkerStorage, prefix: string): string[] {
  const keys: string[] = [];
  const length = attempt(() => storage.length) ?? 0;
  for (let i = 0; i < length; i += 1) {
    const key = attempt(() => storage.key(i));
    if (key?.startsWith(prefix)) keys.push(key);
  }
  return keys;
}

function attempt<T>(action: () => T): T | undefined {
  try {
    return action();
  } catch {
    return undefined;
  }
}
