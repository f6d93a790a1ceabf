/** A padlock drawn inline; the label is read by screen readers (the drawing itself is hidden). */
export function LockIcon({ label }: { label: string }) {
  return (
    <span className="settings-lock">
      <svg className="settings-lock__icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
        <path
          fill="currentColor"
          d="M8 1a3.5 3.5 0 0 0-3.5 3.5V7H4a1 1 0 0 0-1 1v6a1 1 0 0 0 1 1h8a1 1 0 0 0 1-1V8a1 1 0 0 0-1-1h-.5V4.5A3.5 3.5 0 0 0 8 1Zm-2 6V4.5a2 2 0 1 1 4 0V7H6Z"
        />
      </svg>
      <span className="visually-hidden">({label})</span>
    </span>
  );
}
