import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// madge has no type declarations; its API: madge(paths, config) → { circular(): string[][] }.
// @ts-expect-error untyped module
import madge from 'madge';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * Dependencies point one way: no source file of any workspace reaches itself through its imports
 * (type-only imports included), which is what `npx madge --circular --extensions ts packages apps`
 * checks by hand.
 */
describe('the import graph', () => {
  it('should have no cycle in packages/ and apps/', { timeout: 120_000 }, async () => {
    const graph = (await madge(['packages', 'apps'], { baseDir: ROOT, fileExtensions: ['ts'], excludeRegExp: [/node_modules/] })) as {
      circular(): string[][];
    };
    expect(graph.circular()).toEqual([]);
  });
});
