import { useEffect, type KeyboardEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import { selectIsAdmin } from '../../lib/auth/auth-slice';
import { tabIndexAfterKey } from '../../lib/ui/tab-keys';
import { AuditLogPanel } from './audit-log-panel';
import { BillingPanel } from './billing-panel';
import { LockIcon } from './lock-icon';
import { MembersPanel } from './members-panel';
import { NotificationsPanel } from './notifications-panel';
import { ProfilePanel } from './profile-panel';
import { SecurityPanel } from './security-panel';
import { SETTINGS_TABS, TAB_LABELS, tabFromQuery, type SettingsTab } from './settings-rules';
import './settings.css';

const tabId = (tab: SettingsTab) => `settings-tab-${tab}`;
const panelId = (tab: SettingsTab) => `settings-panel-${tab}`;

function panelFor(tab: SettingsTab): ReactNode {
  switch (tab) {
    case 'profile':
      return <ProfilePanel />;
    case 'notifications':
      return <NotificationsPanel />;
    case 'security':
      return <SecurityPanel />;
    case 'billing':
      return <BillingPanel />;
    case 'members':
      return <MembersPanel />;
    case 'audit-log':
      return <AuditLogPanel />;
  }
}

/**
 * /settings (spec part 1 §2): six tabs. The open tab lives in the URL (?tab=members) so a reload
 * or a shared link opens the same one. Members carries a lock for non-admins, the Audit Log one
 * for everybody (Enterprise only); both can still be opened to see why they are locked.
 */
export function SettingsPage() {
  const [params, setParams] = useSearchParams();
  const active = tabFromQuery(params.get('tab'));
  const isAdmin = useAppSelector(selectIsAdmin);

  // On a phone the tab strip scrolls sideways; keep the open tab (e.g. after a reload) in view.
  useEffect(() => {
    document.getElementById(tabId(active))?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [active]);

  const lockReason = (tab: SettingsTab): string | null => {
    if (tab === 'members' && !isAdmin) return 'locked: Admin users only';
    if (tab === 'audit-log') return 'locked: Enterprise plan only';
    return null;
  };

  const choose = (tab: SettingsTab) => {
    // replace: switching tabs is not worth a Back-button step each.
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.set('tab', tab);
        return next;
      },
      { replace: true },
    );
  };

  // Arrow keys, Home and End move between tabs (automatic activation).
  const onTabKeyDown = (event: KeyboardEvent) => {
    const target = tabIndexAfterKey(event.key, SETTINGS_TABS.indexOf(active), SETTINGS_TABS.length);
    if (target === undefined) return;
    event.preventDefault();
    const tab = SETTINGS_TABS[target] ?? 'profile';
    choose(tab);
    document.getElementById(tabId(tab))?.focus();
  };

  return (
    <div className="page settings">
      <h1>Settings</h1>
      <div role="tablist" aria-label="Settings sections" className="tabs settings__tabs" onKeyDown={onTabKeyDown}>
        {SETTINGS_TABS.map((tab) => {
          const lock = lockReason(tab);
          const selected = tab === active;
          return (
            <button
              key={tab}
              type="button"
              role="tab"
              id={tabId(tab)}
              aria-selected={selected}
              // Only the open tab's panel is rendered, so only it can be referenced.
              aria-controls={selected ? panelId(tab) : undefined}
              tabIndex={selected ? 0 : -1}
              className="tabs__tab settings__tab"
              onClick={() => choose(tab)}
            >
              {TAB_LABELS[tab]}
              {/* The space sits outside the icon so the accessible name reads 'Members (locked: …)'. */}
              {lock ? ' ' : null}
              {lock ? <LockIcon label={lock} /> : null}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={panelId(active)} aria-labelledby={tabId(active)} tabIndex={0} className="settings__panel">
        {panelFor(active)}
      </div>
    </div>
  );
}
