import type { RecognizedSegment } from './recognition-engine.ts';
import { normalizeForWer } from './word-error-rate.ts';

export interface CollapseRepeatsOptions {
  /** Occurrences in a row of a phrase of 2+ words that count as a loop (default 3). */
  minRepeats?: number;
  /** Occurrences in a row of a single word that count as a loop (default 5: "no, no, no" is real speech). */
  minRepeatsSingleWord?: number;
  /** Longest phrase looked for, in words (default 12). */
  maxPhraseWords?: number;
}

/**
 * Collapses recogniser loops (Whisper's failure of repeating a phrase over and over) into one
 * occurrence: inside each segment (on its words, or on its text when it has no words), then across
 * segments when whole segments repeat 3+ times in a row. Words compare after normalizeForWer,
 * so case and punctuation do not matter. Times in seconds; kept words keep their times, and a
 * segment's end becomes its last kept word's end.
 */
export function collapseRepeats(segments: readonly RecognizedSegment[], options: CollapseRepeatsOptions = {}): RecognizedSegment[] {
  const inside = segments.map((segment) => {
    if (segment.words.length === 0) {
      const tokens = collapseRepeatedRuns(segment.text.trim().split(/\s+/), (t) => t, options);
      return { ...segment, text: tokens.join(' ') };
    }
    const words = collapseRepeatedRuns(segment.words, (word) => word.text, options);
    if (words.length === segment.words.length) return segment;
    return { ...segment, words, text: words.map((w) => w.text).join(' '), end: words.at(-1)?.end ?? segment.end };
  });
  const segmentOptions = { ...options, minRepeatsSingleWord: options.minRepeats ?? 3, maxPhraseWords: 4 };
  return collapseRepeatedRuns(inside, (segment) => segment.text, segmentOptions);
}

/**
 * Generic loop removal on a sequence: wherever a run of 1..maxPhraseWords items repeats enough
 * times in a row (by `textOf`, normalised), only its first occurrence is kept.
 */
export function collapseRepeatedRuns<T>(items: readonly T[], textOf: (item: T) => string, options: CollapseRepeatsOptions = {}): T[] {
  const keys = items.map((item) => normalizeForWer(textOf(item)) || textOf(item));
  const maxPhrase = options.maxPhraseWords ?? 12;
  const kept: T[] = [];
  let i = 0;
  while (i < items.length) {
    let skipTo = -1;
    for (let n = 1; n <= maxPhrase && i + n <= items.length && skipTo < 0; n++) {
      const needed = n === 1 ? (options.minRepeatsSingleWord ?? 5) : (options.minRepeats ?? 3);
      const repeats = countRepeats(keys, i, n);
      if (repeats >= needed) skipTo = i + n * repeats;
      if (skipTo >= 0) kept.push(...items.slice(i, i + n));
    }
    if (skipTo >= 0) i = skipTo;
    else kept.push(items[i++]!);
  }
  return kept;
}

/** How many times keys[start, start+n) occurs back to back from `start` (at least 1). */
function countRepeats(keys: readonly string[], start: number, n: number): number {
  let repeats = 1;
  for (let next = start + n; next + n <= keys.length; next += n, repeats++) {
    for (let k = 0; k < n; k++) if (keys[next + k] !== keys[start + k]) return repeats;
  }
  return repeats;
}
