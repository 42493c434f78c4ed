import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { classifyTestFiles, TEST_FILE_GLOBS } from './scripts/test/classify-test-files.ts';

const { unit } = classifyTestFiles(fileURLToPath(new URL('.', import.meta.url)));

export default defineConfig({
  test: {
    // Upper bounds for a loaded 2-core machine (tests that start services and recognise speech run
    // several times slower under CPU load); a test fails on its own assertions long before.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // Recognition is CPU-bound and the CI machine has 2 cores.
    maxWorkers: 2,
    fileParallelism: true,
    // `npm run test:unit` runs the project `unit` alone (no service, no database, no external
    // program: scripts/test/classify-test-files.ts); `npm test` runs both.
    projects: [
      { extends: true, test: { name: 'unit', include: unit } },
      { extends: true, test: { name: 'integration', include: TEST_FILE_GLOBS, exclude: unit } },
    ],
  },
});
