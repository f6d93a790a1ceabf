import { defineConfig, loadEnv } from 'vite';
import react from '@vitejs/plugin-react';

const webRoot = import.meta.dirname;

// The gateway serves the REST API under /api. In development Vite serves the app and forwards
// /api to the gateway, so the browser sees one origin (cookies and CSRF work as in production,
// where the gateway serves the built app itself).
export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, webRoot, '');
  const gatewayPort = env.GATEWAY_PORT || '8080';

  return {
    root: webRoot,
    plugins: [react()],
    build: {
      outDir: 'dist',
      emptyOutDir: true,
    },
    server: {
      proxy: {
        '/api': { target: `http://127.0.0.1:${gatewayPort}`, changeOrigin: false },
      },
    },
  };
});
