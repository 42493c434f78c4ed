import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts'],
    // Upper bounds for a loaded 2-core machine (tests that start services and recognise speech run
    // several times slower under CPU load); a test fails on its own assertions long before.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // Recognition is CPU-bound and the CI machine has 2 cores.
    maxWorkers: 2,
    fileParallelism: true,
  },
});
