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
    // The CI machine has 2 cores, but most integration tests wait on services they spawned (their
    // start, a poll, a retry delay): with 2 files at a time a full run used 1.5 cores of 2 and took
    // 20 min; with 3 it took 15.7 min with no failure (22 min of CPU either way).
    maxWorkers: 3,
    fileParallelism: true,
    // Test files of one worker share its module cache: an integration file spent about 5 s of CPU
    // importing the service anew (12 route files: 309 s of CPU isolated, 245 s shared). Test files
    // therefore leave no state behind: an env variable they set is restored, servers are closed.
    isolate: false,
    // `npm run test:unit` runs the project `unit` alone (no service, no database, no external
    // program: scripts/test/classify-test-files.ts); `npm test` runs both.
    projects: [
      { extends: true, test: { name: 'unit', include: unit } },
      { extends: true, test: { name: 'integration', include: TEST_FILE_GLOBS, exclude: unit } },
    ],
  },
});
