import { Link } from 'react-router';

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <span>© Parlance</span>
      <nav aria-label="Footer" className="site-footer__nav">
        <Link to="/privacy">Privacy</Link>
        <Link to="/terms">Terms</Link>
        <Link to="/dpa">DPA</Link>
        <Link to="/status">System status</Link>
      </nav>
    </footer>
  );
}
