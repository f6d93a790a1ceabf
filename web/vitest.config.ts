import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineProject({
  root: import.meta.dirname,
  plugins: [react()],
  // Resolve packages as the browser build does. Without this, `react-router/dom` loads as
  // CommonJS while `react-router` loads as ESM, giving two router contexts in one test.
  resolve: { conditions: ['module', 'browser', 'development|production'] },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/testing/setup-tests.ts'],
    unstubGlobals: true,
  },
});
