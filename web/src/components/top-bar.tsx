import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { selectAuthStatus, selectCompany, selectUser } from '../lib/auth/auth-slice';
import { departmentChosen, departmentName, selectActiveDepartment } from '../lib/auth/department-slice';
import { logOut } from '../lib/auth/session';
import { demoRequested, PRODUCT_DEMO_TITLE } from '../lib/ui/demo-slice';

/** Spec part 1 §9: the bar's shadow deepens once the page is scrolled further than this. */
export const SCROLL_SHADOW_PX = 10;

type Menu = 'navigation' | 'department' | 'user';

const SIGNED_OUT_LINKS = [
  { to: '/home', label: 'Home' },
  { to: '/calculator', label: 'ROI Calculator' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/login', label: 'Login' },
];

const SIGNED_IN_LINKS = [
  { to: '/dashboard', label: 'Dashboard' },
  { to: '/activities', label: 'Activities' },
  { to: '/teams', label: 'Teams' },
];

export function initialsOf(firstName: string, lastName: string): string {
  return `${firstName.trim().charAt(0)}${lastName.trim().charAt(0)}`.toUpperCase() || '?';
}

function useScrolledPast(threshold: number) {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > threshold);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, [threshold]);
  return scrolled;
}

/**
 * Spec part 1 §2: signed out, the public pages and 'Request a Demo'; signed in, the work areas,
 * the department switcher and the user menu. One dropdown is open at a time, and a click outside
 * it (or Escape) closes it.
 */
export function TopBar() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const status = useAppSelector(selectAuthStatus);
  const user = useAppSelector(selectUser);
  const company = useAppSelector(selectCompany);
  const department = useAppSelector(selectActiveDepartment);
  const signedIn = status === 'authenticated' && user !== null && company !== null;
  const scrolled = useScrolledPast(SCROLL_SHADOW_PX);
  const [openMenu, setOpenMenu] = useState<Menu | null>(null);
  const bar = useRef<HTMLElement>(null);

  useEffect(() => setOpenMenu(null), [location.pathname]);

  useEffect(() => {
    if (!openMenu) return;
    const closeOutside = (event: MouseEvent) => {
      const inside = (event.target as Element | null)?.closest?.(`[data-menu="${openMenu}"]`);
      if (!inside) setOpenMenu(null);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpenMenu(null);
    };
    document.addEventListener('mousedown', closeOutside);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('mousedown', closeOutside);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [openMenu]);

  const toggle = (menu: Menu) => setOpenMenu((current) => (current === menu ? null : menu));

  const onLogout = async () => {
    setOpenMenu(null);
    await dispatch(logOut());
    navigate('/home');
  };

  const links = signedIn ? SIGNED_IN_LINKS : SIGNED_OUT_LINKS;

  return (
    <header ref={bar} className={`top-bar${scrolled ? ' top-bar--scrolled' : ''}`}>
      <Link to={signedIn ? '/dashboard' : '/home'} className="top-bar__logo">
        Parlance
      </Link>
      <div className="top-bar__menu" data-menu="navigation">
        <button
          type="button"
          className="top-bar__toggle button button--small"
          aria-expanded={openMenu === 'navigation'}
          aria-controls="main-navigation"
          onClick={() => toggle('navigation')}
        >
          Menu
        </button>
        <nav
          id="main-navigation"
          aria-label="Main"
          className={`top-bar__nav${openMenu === 'navigation' ? ' top-bar__nav--open' : ''}`}
        >
          {links.map((link) => (
            <NavLink key={link.to} to={link.to} className="top-bar__link" end={link.to === '/dashboard'} onClick={() => setOpenMenu(null)}>
              {link.label}
            </NavLink>
          ))}
        </nav>
      </div>
      <div className="top-bar__actions">
        {signedIn ? (
          <>
            {company.departments.length > 0 && (
              <div className="dropdown" data-menu="department">
                <button
                  type="button"
                  className="dropdown__button"
                  aria-haspopup="true"
                  aria-expanded={openMenu === 'department'}
                  aria-label={`Department: ${department ? departmentName(department) : 'none'}`}
                  onClick={() => toggle('department')}
                >
                  {department ? departmentName(department) : 'Department'} <span aria-hidden="true">▾</span>
                </button>
                {openMenu === 'department' && (
                  <ul className="dropdown__menu" aria-label="Departments">
                    {company.departments.map((key) => (
                      <li key={key}>
                        <button
                          type="button"
                          className="dropdown__item"
                          aria-current={key === department ? 'true' : undefined}
                          onClick={() => {
                            dispatch(departmentChosen(key));
                            setOpenMenu(null);
                          }}
                        >
                          {departmentName(key)}
                        </button>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            )}
            <div className="dropdown" data-menu="user">
              <button
                type="button"
                className="dropdown__button user-menu__button"
                aria-haspopup="true"
                aria-expanded={openMenu === 'user'}
                onClick={() => toggle('user')}
              >
                <span className="user-menu__initials" aria-hidden="true">
                  {initialsOf(user.firstName, user.lastName)}
                </span>
                <span className="user-menu__name">
                  {user.firstName} {user.lastName}
                </span>
              </button>
              {openMenu === 'user' && (
                <ul className="dropdown__menu dropdown__menu--end" aria-label="Account">
                  <li>
                    <Link className="dropdown__item" to="/settings">
                      Settings
                    </Link>
                  </li>
                  <li>
                    <Link className="dropdown__item" to="/integrations">
                      Integrations
                    </Link>
                  </li>
                  <li>
                    <button type="button" className="dropdown__item" onClick={onLogout}>
                      Logout
                    </button>
                  </li>
                </ul>
              )}
            </div>
          </>
        ) : (
          <button type="button" className="button button--primary top-bar__demo" onClick={() => dispatch(demoRequested(PRODUCT_DEMO_TITLE))}>
            Request a Demo
          </button>
        )}
      </div>
    </header>
  );
}
