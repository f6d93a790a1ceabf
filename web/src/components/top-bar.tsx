import { Link, NavLink } from 'react-router';

// The product's main areas (spec part 1, §2). Pages that are not built yet fall through to
// the not-found page until they are.
const NAV_LINKS = [
  { to: '/dashboard', label: 'Dashboard' },
  { to: '/activities', label: 'Activities' },
  { to: '/teams', label: 'Teams' },
  { to: '/integrations', label: 'Integrations' },
  { to: '/settings', label: 'Settings' },
] as const;

export function TopBar() {
  return (
    <header className="top-bar">
      <Link to="/home" className="top-bar__logo">
        Parlance
      </Link>
      <nav aria-label="Main" className="top-bar__nav">
        {NAV_LINKS.map((link) => (
          <NavLink key={link.to} to={link.to} className="top-bar__link">
            {link.label}
          </NavLink>
        ))}
      </nav>
    </header>
  );
}
