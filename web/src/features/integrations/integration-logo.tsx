/**
 * The mark drawn for an integration's `icon` (close, hubspot or google-workspace): a tile in the
 * vendor's colour with its initial. Decorative: the card's heading names the integration.
 */
const MARKS: Record<string, { letter: string; colour: string }> = {
  close: { letter: 'C', colour: '#1d63ed' },
  hubspot: { letter: 'H', colour: '#ff5c35' },
};

export function IntegrationLogo({ icon }: { icon: string }) {
  if (icon === 'google-workspace') {
    return (
      <svg className="integration-logo" viewBox="0 0 40 40" aria-hidden="true" focusable="false">
        <rect width="40" height="40" rx="8" fill="#fff" stroke="#e4e7eb" />
        <circle cx="14" cy="14" r="5" fill="#4285f4" />
        <circle cx="26" cy="14" r="5" fill="#ea4335" />
        <circle cx="14" cy="26" r="5" fill="#34a853" />
        <circle cx="26" cy="26" r="5" fill="#fbbc04" />
      </svg>
    );
  }
  const mark = MARKS[icon] ?? { letter: icon.charAt(0).toUpperCase() || '?', colour: '#616e7c' };
  return (
    <svg className="integration-logo" viewBox="0 0 40 40" aria-hidden="true" focusable="false">
      <rect width="40" height="40" rx="8" fill={mark.colour} />
      <text x="20" y="27" textAnchor="middle" fontSize="20" fontWeight="700" fontFamily="system-ui, sans-serif" fill="#fff">
        {mark.letter}
      </text>
    </svg>
  );
}
