import { beforeEach, describe, expect, it } from 'vitest';
import {
  DUPLICATE_LOCK_MS,
  DuplicateLock,
  STALE_MARKER_MS,
  globalMarkerKey,
  sessionMarkerKey,
  type MarkerStorage,
} from './duplicate-lock';

/** An in-memory Web Storage. */
class FakeStorage implements MarkerStorage {
  private readonly items = new Map<string, string>();

  get length() {
    return this.items.size;
  }

  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }

  getItem(key: string) {
    return this.items.get(key) ?? null;
  }

  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }

  removeItem(key: string) {
    this.items.delete(key);
  }

  keys() {
    return [...this.items.keys()];
  }
}

/** A storage that refuses everything, as in some private browsing modes. */
const brokenStorage: MarkerStorage = {
  get length(): number {
    throw new Error('denied');
  },
  key: () => {
    throw new Error('denied');
  },
  getItem: () => {
    throw new Error('denied');
  },
  setItem: () => {
    throw new Error('denied');
  },
  removeItem: () => {
    throw new Error('denied');
  },
};

let local: FakeStorage;
let session: FakeStorage;
let time: number;
const now = () => time;

/** A lock for one view (one tab's team list) sharing `local`; `ownSession` for another tab. */
const makeLock = (ownSession: MarkerStorage = session) => new DuplicateLock({ local, session: ownSession, now });

beforeEach(() => {
  local = new FakeStorage();
  session = new FakeStorage();
  time = 1_000_000;
});

describe('DuplicateLock', () => {
  it('uses the spec durations: an 8 s lock, markers stale after 10 s', () => {
    expect(DUPLICATE_LOCK_MS).toBe(8000);
    expect(STALE_MARKER_MS).toBe(10000);
  });

  it('lets a first duplicate begin and writes both markers under feature-named keys', () => {
    const lock = makeLock();
    expect(lock.begin('team-1')).toBe(true);
    expect(lock.isRunning('team-1')).toBe(true);
    expect(local.getItem('team-duplicate-global:team-1')).toBe(String(time));
    expect(session.getItem('team-duplicate-session:team-1')).toBe(String(time));
    expect(globalMarkerKey('team-1')).toBe('team-duplicate-global:team-1');
    expect(sessionMarkerKey('team-1')).toBe('team-duplicate-session:team-1');
  });

  it('blocks a second duplicate of the same team while one is running in this view', () => {
    const lock = makeLock();
    lock.begin('team-1');
    local.removeItem(globalMarkerKey('team-1'));
    session.removeItem(sessionMarkerKey('team-1'));
    expect(lock.isBlocked('team-1')).toBe(true);
    expect(lock.begin('team-1')).toBe(false);
  });

  it('does not block a duplicate of another team', () => {
    const lock = makeLock();
    lock.begin('team-1');
    expect(lock.begin('team-2')).toBe(true);
  });

  it('blocks while another tab global marker for the team is younger than 8 seconds', () => {
    makeLock(new FakeStorage()).begin('team-1');
    const lock = makeLock();
    time += DUPLICATE_LOCK_MS - 1;
    expect(lock.begin('team-1')).toBe(false);
    time += 1;
    expect(lock.begin('team-1')).toBe(true);
  });

  it('blocks while a session marker for the team exists, however old', () => {
    session.setItem(sessionMarkerKey('team-1'), String(time - 60 * 60_000));
    expect(makeLock().begin('team-1')).toBe(false);
  });

  it('lowers the in-view flag and the session marker on end, keeping the global marker for 8 seconds', () => {
    const lock = makeLock();
    lock.begin('team-1');
    time += 1000;
    lock.end('team-1');
    expect(lock.isRunning('team-1')).toBe(false);
    expect(session.getItem(sessionMarkerKey('team-1'))).toBeNull();
    expect(local.getItem(globalMarkerKey('team-1'))).not.toBeNull();
    expect(lock.begin('team-1')).toBe(false);
    time += DUPLICATE_LOCK_MS;
    expect(lock.begin('team-1')).toBe(true);
  });

  it('leaves markers alone when ending a duplicate this view did not begin', () => {
    const owner = makeLock();
    owner.begin('team-1');
    const other = makeLock();
    expect(other.begin('team-1')).toBe(false);
    other.end('team-1');
    expect(session.getItem(sessionMarkerKey('team-1'))).not.toBeNull();
    expect(owner.isRunning('team-1')).toBe(true);
  });

  it('clears every session marker and the global markers this view wrote', () => {
    const otherTab = makeLock(new FakeStorage());
    otherTab.begin('team-9');
    const lock = makeLock();
    lock.begin('team-1');
    lock.begin('team-2');
    session.setItem(sessionMarkerKey('left-over'), '1');
    session.setItem('selected-department', 'sales');
    local.setItem('is-authenticated', 'true');

    lock.clearAll();

    expect(session.keys()).toEqual(['selected-department']);
    expect(local.keys().sort()).toEqual([globalMarkerKey('team-9'), 'is-authenticated'].sort());
  });

  it('allows a new duplicate after the markers are cleared once the running one ended', () => {
    const lock = makeLock();
    lock.begin('team-1');
    lock.end('team-1');
    lock.clearAll();
    expect(lock.begin('team-1')).toBe(true);
  });

  it('keeps blocking a running duplicate after the markers are cleared', () => {
    const lock = makeLock();
    lock.begin('team-1');
    lock.clearAll();
    expect(lock.begin('team-1')).toBe(false);
  });

  it('removes global markers older than 10 seconds and unreadable ones, from any tab', () => {
    local.setItem(globalMarkerKey('old'), String(time - STALE_MARKER_MS - 1));
    local.setItem(globalMarkerKey('edge'), String(time - STALE_MARKER_MS));
    local.setItem(globalMarkerKey('fresh'), String(time - 1000));
    local.setItem(globalMarkerKey('garbage'), 'not a time');
    local.setItem('is-authenticated', 'true');
    session.setItem(sessionMarkerKey('old'), String(time - 60_000));

    makeLock().removeStale();

    expect(local.keys().sort()).toEqual([globalMarkerKey('edge'), globalMarkerKey('fresh'), 'is-authenticated'].sort());
    expect(session.getItem(sessionMarkerKey('old'))).not.toBeNull();
  });

  it('ignores an unreadable global marker when deciding', () => {
    local.setItem(globalMarkerKey('team-1'), 'not a time');
    expect(makeLock().begin('team-1')).toBe(true);
  });

  it('still blocks a running duplicate when storage is unavailable', () => {
    const lock = new DuplicateLock({ local: brokenStorage, session: brokenStorage, now });
    expect(lock.begin('team-1')).toBe(true);
    expect(lock.begin('team-1')).toBe(false);
    lock.end('team-1');
    lock.clearAll();
    lock.removeStale();
    expect(lock.begin('team-1')).toBe(true);
  });

  it('defaults to the browser storages and clock', () => {
    const lock = new DuplicateLock();
    expect(lock.begin('default-team')).toBe(true);
    expect(window.localStorage.getItem(globalMarkerKey('default-team'))).not.toBeNull();
    expect(window.sessionStorage.getItem(sessionMarkerKey('default-team'))).not.toBeNull();
    lock.end('default-team');
    lock.clearAll();
    expect(window.localStorage.getItem(globalMarkerKey('default-team'))).toBeNull();
  });
});
