import { defineConfig } from 'vitest/config';

// Unit tests sit next to the code (src/**); integration tests live in test/ and use the real
// Postgres and Kafka that `deploy/local/services up` starts.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['services/*/src/**/*.test.ts', 'services/*/test/**/*.test.ts', 'services/*/eval/**/*.test.ts', 'gateway/src/**/*.test.ts', 'gateway/test/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      'web',
    ],
  },
});
