import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineProject({
  root: import.meta.dirname,
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/testing/setup-tests.ts'],
    unstubGlobals: true,
    server: { deps: { inline: ['react-router'] } },
  },
});
