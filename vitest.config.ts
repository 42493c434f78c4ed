import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Recognition is CPU-bound and the CI machine has 2 cores.
    maxWorkers: 2,
    fileParallelism: true,
  },
});
