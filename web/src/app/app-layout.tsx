import { Outlet } from 'react-router';
import { TopBar } from '../components/top-bar';
import { SiteFooter } from '../components/site-footer';

export function AppLayout() {
  return (
    <div className="app-layout">
      <TopBar />
      <main className="app-layout__main">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
