import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRONUNCIATION_DICTIONARY, readPronunciations } from './read-pronunciations.ts';

describe('readPronunciations', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'pronunciations-'));
    await writeFile(join(folder, 'dict'), 'natal N EY T AH L\nnatal(2) N AH T AA1 L\nnorland N AO R L AH N D\n\nodd\n');
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('should keep only the asked words, with every variant and no stress digits', async () => {
    const found = await readPronunciations(join(folder, 'dict'), new Set(['natal', 'missing']));
    expect([...found.keys()]).toEqual(['natal']);
    expect(found.get('natal')).toEqual([
      ['N', 'EY', 'T', 'AH', 'L'],
      ['N', 'AH', 'T', 'AA', 'L'],
    ]);
  });

  it('should give an empty map for a missing file or a null path', async () => {
    expect((await readPronunciations(join(folder, 'nope'), new Set(['natal']))).size).toBe(0);
    expect((await readPronunciations(null, new Set(['natal']))).size).toBe(0);
  });

  it("should read PocketSphinx's dictionary", async () => {
    const found = await readPronunciations(DEFAULT_PRONUNCIATION_DICTIONARY, new Set(['dashwood', 'guess']));
    expect(found.get('dashwood')).toEqual([['D', 'AE', 'SH', 'W', 'UH', 'D']]);
    expect(found.get('guess')).toEqual([['G', 'EH', 'S']]);
  });
});
