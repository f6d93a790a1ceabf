import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { injectAnalyticsScript } from '../lib/analytics';
import { useWebConfig } from '../lib/web-config';
import { TopBar } from '../components/top-bar';
import { SiteFooter } from '../components/site-footer';
import { ToastRegion } from '../components/toast-region';
import { DemoModal } from '../components/demo-modal';

export function AppLayout() {
  const analyticsScript = useWebConfig()?.analyticsScriptUrl;
  useEffect(() => {
    if (analyticsScript) injectAnalyticsScript(analyticsScript);
  }, [analyticsScript]);
  return (
    <div className="app-layout">
      <TopBar />
      <main className="app-layout__main" id="main">
        <Outlet />
      </main>
      <SiteFooter />
      <DemoModal />
      <ToastRegion />
    </div>
  );
}
