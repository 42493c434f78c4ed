import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { audioPath } from '../../recognize/shared-audio.test-helper.ts';
import { parseRttm, parseUem } from './parse-rttm.ts';

describe('parseRttm', () => {
  it('should read the ten turns of pyannote_sample.rttm', async () => {
    const turns = parseRttm(await readFile(audioPath('multispeaker/pyannote_sample.rttm'), 'utf8'));
    expect(turns).toHaveLength(10);
    expect(turns[0]).toEqual({ file: 'sample', start: 6.69, end: 6.69 + 0.43, speaker: 'speaker90' });
    expect(new Set(turns.map((t) => t.speaker))).toEqual(new Set(['speaker90', 'speaker91']));
  });

  it('should skip comments, blank lines and other record types, and drop empty turns', () => {
    const text = [
      ';; a comment',
      '',
      'SPKR-INFO rec 1 <NA> <NA> <NA> unknown alice <NA> <NA>',
      'SPEAKER rec 1 1.5 2.25 <NA> <NA> alice <NA> <NA>',
      'SPEAKER rec 1 4 0 <NA> <NA> bob <NA> <NA>',
      '  SPEAKER   rec2 1   0.000   1.000 <NA> <NA> bob <NA> <NA>  ',
    ].join('\r\n');
    expect(parseRttm(text)).toEqual([
      { file: 'rec', start: 1.5, end: 3.75, speaker: 'alice' },
      { file: 'rec2', start: 0, end: 1, speaker: 'bob' },
    ]);
  });

  it('should name the line of a malformed SPEAKER record', () => {
    expect(() => parseRttm('SPEAKER rec 1 0 1\n')).toThrow(/RTTM line 1: expected at least 8 fields/);
    expect(() => parseRttm('\nSPEAKER rec 1 abc 1 <NA> <NA> x <NA> <NA>')).toThrow(/RTTM line 2: "abc" is not a time/);
  });
});

describe('parseUem', () => {
  it('should read the scored region of ami_debug_tst01.uem', async () => {
    expect(parseUem(await readFile(audioPath('multispeaker/ami_debug_tst01.uem'), 'utf8'))).toEqual([{ file: 'tst01', start: 0, end: 30 }]);
  });

  it('should refuse a region that ends before it starts, naming the line', () => {
    expect(() => parseUem(';; x\nrec 1 5 2')).toThrow(/UEM line 2: end 2 is before start 5/);
    expect(() => parseUem('rec 1 5')).toThrow(/UEM line 1: expected 4 fields/);
  });
});
