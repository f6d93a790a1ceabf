import { useId, useRef, type ReactNode } from 'react';
import { tabIndexAfterKey } from '../lib/ui/tab-keys';

export type ActivityType = 'calls' | 'meetings';

const TABS: readonly { id: ActivityType; label: string }[] = [
  { id: 'calls', label: 'Calls' },
  { id: 'meetings', label: 'Meetings' },
];

/**
 * The Calls and Meetings tabs of the activities, dashboard, performance and coaching screens, with
 * the panel they control: the WAI-ARIA tabs pattern (arrow keys, Home and End move the selection).
 */
export function ActivityTabs({
  value,
  onChange,
  children,
  panelClassName,
}: {
  value: ActivityType;
  onChange: (value: ActivityType) => void;
  children: ReactNode;
  panelClassName?: string;
}) {
  const ids = useId();
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (event: React.KeyboardEvent, index: number) => {
    const next = tabIndexAfterKey(event.key, index, TABS.length);
    if (next === undefined) return;
    event.preventDefault();
    onChange(TABS[next]!.id);
    tabRefs.current[next]?.focus();
  };
  return (
    <>
      <div className="tabs" role="tablist" aria-label="Activity type">
        {TABS.map((entry, index) => (
          <button
            key={entry.id}
            ref={(element) => {
              tabRefs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${ids}-${entry.id}-tab`}
            aria-controls={`${ids}-panel`}
            aria-selected={value === entry.id}
            tabIndex={value === entry.id ? 0 : -1}
            className="tabs__tab"
            onClick={() => onChange(entry.id)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {entry.label}
          </button>
        ))}
      </div>
      <div id={`${ids}-panel`} role="tabpanel" aria-labelledby={`${ids}-${value}-tab`} className={panelClassName}>
        {children}
      </div>
    </>
  );
}
