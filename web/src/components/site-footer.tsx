import { Link } from 'react-router';

// Spec part 1 §2: a footer on every page links to privacy, terms and DPA.
export function SiteFooter() {
  return (
    <footer className="site-footer">
      <span>© Parlance</span>
      <nav aria-label="Footer" className="site-footer__nav">
        <Link to="/privacy">Privacy</Link>
        <Link to="/terms">Terms</Link>
        <Link to="/dpa">DPA</Link>
        <Link to="/subprocessors">Sub-processors</Link>
        <Link to="/cookies">Cookies</Link>
        <Link to="/status">System status</Link>
      </nav>
    </footer>
  );
}
