import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the test files live: `src/` of every workspace (vitest `include`). */
export const TEST_FILE_GLOBS = ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts'];

/** Every `.test.ts` file under the `src` folder of each workspace (packages, apps), relative to `root`. */
function listTestFiles(root: string): string[] {
  return ['packages', 'apps'].flatMap((group) =>
    readdirSync(join(root, group)).flatMap((workspace) => {
      const src = join(group, workspace, 'src');
      let names: string[];
      try {
        names = readdirSync(join(root, src), { recursive: true, encoding: 'utf8' });
      } catch {
        return [];
      }
      return names.filter((name) => name.endsWith('.test.ts') && !name.includes('node_modules')).map((name) => join(src, name));
    }),
  );
}

/**
 * What makes a test file need more than Node: a database (PGlite or PostgreSQL), a running service
 * or bot, a child process, real ffmpeg / PocketSphinx / Silero, recordings from ../shared/audio, or
 * a browser; and what makes one too slow for fast feedback: hosts that push tens of MiB through
 * loopback the way real hosts frame them (`startFramedServer`), and madge's walk over the whole
 * tree. A file that mentions none of these is a unit test: `npm run test:unit` runs exactly those,
 * in seconds, with nothing installed but the Node dependencies.
 */
export const NEEDS_SERVICES = new RegExp(
  [
    'startTestService',
    'useApiFixture',
    'spawnService',
    'openDatabase',
    'createTestDatabase',
    'startTestBot',
    'startFakeBotApi',
    'TEST_POSTGRES',
    'PGlite',
    'AUDIO_DIR',
    'shared/audio',
    'ffmpeg',
    'pocketsphinx',
    'decodeToPcm',
    'probeMedia',
    'serveFiles',
    'detectSpeech',
    'spawn\\(',
    'execFile',
    'runScriptToEnd',
    'chromium',
    '\\.wav\\b',
    'startFramedServer',
    'madge',
  ].join('|'),
);

/**
 * Splits the test files into unit tests (no service, no database, no external program) and the
 * rest, by their text (see {@link NEEDS_SERVICES}).
 * @param root the repository root.
 * @returns paths relative to `root`, each list sorted.
 */
export function classifyTestFiles(root: string): { unit: string[]; integration: string[] } {
  const files = listTestFiles(root).sort();
  const unit: string[] = [];
  const integration: string[] = [];
  for (const file of files) (NEEDS_SERVICES.test(readFileSync(`${root}/${file}`, 'utf8')) ? integration : unit).push(file);
  return { unit, integration };
}
