import type { TranscriptWord } from '../../../../contract/output/transcript-model.ts';
import type { RecognizedSegment } from '../../recognition-engine.ts';

/** Frames per second of pocketsphinx (its default `-frate 100`). */
export const POCKETSPHINX_FRAME_RATE = 100;

/** Fields before the word groups: `uttid S scale T total A acoustic L language`. */
const HEADER_FIELDS = 9;

/**
 * Parses the `-hypseg` output of pocketsphinx_batch, one line per utterance:
 * `uttid S scale T total A acoustic L lm` then groups `startFrame acousticScore lmScore word`
 * and a final end frame. Frames (10 ms) count from the start of the utterance.
 * @param utteranceStarts start, in seconds from the start of the recording, of the utterance
 *   whose id is its index in this array (the ids written in the control file).
 * @returns one segment per utterance that has real words, times in seconds from the start of the
 *   recording (rounded to ms), `confidence` null (hypseg has none), `language` null.
 *   Fillers (`<s>`, `</s>`, `<sil>`, `[NOISE]`, `++GARBAGE++`) are dropped and alternatives
 *   such as `can(2)` become `can`. Lines that do not parse are skipped.
 */
export function parsePocketsphinxHypseg(output: string, utteranceStarts: readonly number[]): RecognizedSegment[] {
  const segments: RecognizedSegment[] = [];
  for (const line of output.split('\n')) {
    const fields = line.trim().split(/\s+/);
    const offset = utteranceStarts[Number(fields[0])];
    if (offset === undefined || fields.length < HEADER_FIELDS + 1 || fields[1] !== 'S') continue;
    const words = parseWordGroups(fields.slice(HEADER_FIELDS), offset);
    const first = words[0];
    const last = words.at(-1);
    if (!first || !last) continue;
    segments.push({
      start: first.start,
      end: last.end,
      text: words.map((word) => word.text).join(' '),
      words,
      language: null,
    });
  }
  return segments;
}

function parseWordGroups(groups: string[], offsetSeconds: number): TranscriptWord[] {
  const words: TranscriptWord[] = [];
  const toSeconds = (frame: number) => Math.round((offsetSeconds + frame / POCKETSPHINX_FRAME_RATE) * 1000) / 1000;
  for (let i = 0; i + 4 < groups.length; i += 4) {
    const startFrame = Number(groups[i]);
    const endFrame = Number(groups[i + 4]);
    const text = cleanWord(groups[i + 3] ?? '');
    if (text === null || !Number.isFinite(startFrame) || !Number.isFinite(endFrame)) continue;
    words.push({ start: toSeconds(startFrame), end: toSeconds(Math.max(startFrame, endFrame)), text, confidence: null });
  }
  return words;
}

/** `can(2)` → `can`; fillers and silence markers → null. */
export function cleanWord(token: string): string | null {
  if (token === '' || /^(<.*>|\[.*\]|\+\+.*\+\+)$/.test(token)) return null;
  const word = token.replace(/\(\d+\)$/, '');
  return word === '' ? null : word;
}
