import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const CORE_SRC = fileURLToPath(new URL('../', import.meta.url));

/**
 * The layers of core, lowest first, and the folders each may not import from: a lower layer never
 * reaches up. platform/ (database, jobs, storage, HTTP, errors) knows nothing of recognition or of
 * predictions; contract/ (the spec's input and tables) and pipeline/ (the pure stages: fetch,
 * decode, VAD, recognize, diarize, render, post-process) know nothing of stored resources; the use
 * cases in resources/ compose them all, and hand the job worker what it runs
 * (resources/predictions/run/create-transcribe-job-handler.ts).
 */
const FORBIDDEN: Record<string, string[]> = {
  platform: ['pipeline', 'resources'],
  contract: ['pipeline', 'resources'],
  pipeline: ['resources'],
};

/** Every TypeScript or CommonJS source under core's src/ (tests included), relative to src/. */
function coreFiles(folder = CORE_SRC): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : coreFiles(path);
    return /\.(ts|cjs|mjs)$/.test(entry.name) && !/\.tmp\.[a-z]+$/.test(entry.name) ? [relative(CORE_SRC, path)] : [];
  });
}

/** The module specifiers of a source text (static, type-only and dynamic imports, re-exports, require), by TypeScript's own scanner. */
function specifiersOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName);
}

/** The top folder of src/ that `specifier`, written in `file` (relative to src/), reaches; null for a package or a file outside src/. */
function layerReached(file: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const target = normalize(join(dirname(file), specifier));
  return target.startsWith('..') ? null : (target.split(sep)[0] ?? null);
}

/** The imports of `file` (relative to src/, with source `text`) that reach a layer its own layer may not use, as `file → specifier`. */
function forbiddenImports(file: string, text: string): string[] {
  const forbidden = FORBIDDEN[file.split(sep)[0]!] ?? [];
  return specifiersOf(text)
    .filter((specifier) => forbidden.includes(layerReached(file, specifier) ?? ''))
    .map((specifier) => `${file} → ${specifier}`);
}

describe('the layers of core', () => {
  it('should import downwards only: platform/ nothing of pipeline/ or resources/, contract/ and pipeline/ nothing of resources/', () => {
    const files = coreFiles().filter((file) => file.split(sep)[0]! in FORBIDDEN);
    expect(files.filter((file) => file.startsWith(`platform${sep}jobs${sep}`)).length).toBeGreaterThan(0); // the walk found the layers it guards
    const offending = files.flatMap((file) => forbiddenImports(file, readFileSync(join(CORE_SRC, file), 'utf8')));
    expect(offending).toEqual([]);
  });

  it('should see every form of import that reaches up', () => {
    const file = join('platform', 'jobs', 'some-job.ts');
    const text = [
      "import { a } from '../../resources/predictions/a.ts';",
      "import type { B } from '../../pipeline/b.ts';",
      "export { c } from '../../resources/c.ts';",
      "const d = await import('../../pipeline/d.ts');",
      "import { e } from '../db/e.ts';",
      "import { f } from '../../service-context.ts';",
      "import g from 'pg-boss';",
      "// import { h } from '../../resources/h.ts';",
    ].join('\n');
    expect(forbiddenImports(file, text)).toEqual([
      `${file} → ../../resources/predictions/a.ts`,
      `${file} → ../../pipeline/b.ts`,
      `${file} → ../../resources/c.ts`,
      `${file} → ../../pipeline/d.ts`,
    ]);
    expect(forbiddenImports(join('resources', 'x.ts'), "import { y } from '../pipeline/y.ts';")).toEqual([]);
  });
});
