import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CORE = join(ROOT, 'packages', 'core') + sep;

/** The two ways into the core package from outside it (packages/core/package.json "exports"). */
const PUBLIC_ENTRIES = new Set(['@transcribe/core', '@transcribe/core/testing']);

const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;
/** Scratch files of a working session (`name.tmp.ts`), never committed. */
const SCRATCH = /\.tmp\.[a-z]+$/;
/** Folders that hold no project source: dependencies, data and models a run downloads or writes, scratch. */
const SKIPPED = new Set(['node_modules', 'data', 'models', 'drizzle', 'docs', 'tmp']);

/** Every source file of the repository outside packages/core, as paths relative to the root. */
function sourcesOutsideCore(folder = ROOT): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (entry.name.startsWith('.') || SKIPPED.has(entry.name) || path + sep === CORE) return [];
      return sourcesOutsideCore(path);
    }
    return SOURCE.test(entry.name) && !SCRATCH.test(entry.name) ? [relative(ROOT, path)] : [];
  });
}

/** The module specifiers of a file: `import … from`, `export … from`, bare `import '…'`, `import('…')`. */
function specifiersOf(text: string): string[] {
  return [...text.matchAll(/\b(?:from|import)\s*\(?\s*['"]([^'"\n]+)['"]/g)].map((match) => match[1]!);
}

/** Whether `specifier`, written in `file`, reaches into the core package other than by a public entry. */
function reachesCoreInternals(file: string, specifier: string): boolean {
  if (specifier.startsWith('@transcribe/core')) return !PUBLIC_ENTRIES.has(specifier);
  if (specifier.startsWith('.')) return resolve(ROOT, dirname(file), specifier).startsWith(CORE);
  return specifier.includes('packages/core/');
}

/**
 * The core package has two public entries: `@transcribe/core` (src/index.ts, what the apps
 * compose) and `@transcribe/core/testing` (src/testing/index.ts, test helpers). Apps, their tests,
 * bench/ and scripts/ use those only, so anything else in packages/core/src can move or change
 * without touching them. Tests colocated inside packages/core/src test internals and may import by
 * path.
 */
describe('the public entries of @transcribe/core', () => {
  it('should be the only way into the core package from outside it', () => {
    const files = sourcesOutsideCore();
    // The walk found the workspaces it guards.
    expect(files.some((file) => file.startsWith(join('apps', 'api', 'src')))).toBe(true);
    const offending = files.flatMap((file) =>
      specifiersOf(readFileSync(join(ROOT, file), 'utf8'))
        .filter((specifier) => reachesCoreInternals(file, specifier))
        .map((specifier) => `${file}: ${specifier}`),
    );
    expect(offending).toEqual([]);
  });

  it('should tell a public entry from a path into core', () => {
    const file = join('apps', 'api', 'src', 'routes', 'some.test.ts');
    expect(reachesCoreInternals(file, '@transcribe/core')).toBe(false);
    expect(reachesCoreInternals(file, '@transcribe/core/testing')).toBe(false);
    expect(reachesCoreInternals(file, '../test-support/serve-files.ts')).toBe(false);
    expect(reachesCoreInternals(file, 'drizzle-orm')).toBe(false);
    expect(reachesCoreInternals(file, '@transcribe/core/src/index.ts')).toBe(true);
    expect(reachesCoreInternals(file, '../../../../packages/core/src/platform/db/schema.ts')).toBe(true);
    expect(specifiersOf("import { a } from 'x';\nexport { b } from \"y\";\nawait import('z');\nimport 'w';")).toEqual(['x', 'y', 'z', 'w']);
  });
});
