/** Result of comparing a hypothesis with a reference transcript, word by word. */
export interface WordErrorRate {
  /** (substitutions + deletions + insertions) / referenceWords; 0 when both are empty, 1 when only the reference is. */
  wer: number;
  substitutions: number;
  deletions: number;
  insertions: number;
  referenceWords: number;
}

/**
 * Normalises text for WER scoring: lowercase (Unicode), punctuation removed (apostrophes kept only
 * between letters, so `don't` stays and `'tis` / `dogs'` lose theirs), hyphens and dashes become
 * spaces, whitespace collapsed, numbers kept as written (`10` and `ten` differ).
 */
export function normalizeForWer(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[\u2018\u2019\u02bc]/g, "'")
      // NUL stands in for a word-inner apostrophe while punctuation is removed (it never occurs in text).
      /* eslint-disable no-control-regex */
      .replace(/(?<=\p{L})'(?=\p{L})/gu, '\u0000')
      .replace(/[^\p{L}\p{N}\p{M}\u0000]+/gu, ' ')
      .replace(/\u0000/g, "'")
      /* eslint-enable no-control-regex */
      .trim()
      .replace(/\s+/g, ' ')
  );
}

/**
 * Word error rate by Levenshtein alignment of the words of `normalizeForWer(reference)` and
 * `normalizeForWer(hypothesis)`. Among alignments of equal cost the one with the fewest
 * substitutions (so the most matched words) is counted, e.g. `the cat sat on the mat` →
 * `the bat sat on mat today` is 1 substitution, 1 deletion, 1 insertion.
 */
export function wordErrorRate(reference: string, hypothesis: string): WordErrorRate {
  const ref = splitWords(reference);
  const hyp = splitWords(hypothesis);
  type Cell = { cost: number; s: number; d: number; i: number };
  let previous: Cell[] = hyp.map((_, j) => ({ cost: j + 1, s: 0, d: 0, i: j + 1 }));
  previous.unshift({ cost: 0, s: 0, d: 0, i: 0 });
  for (let r = 1; r <= ref.length; r++) {
    const current: Cell[] = [{ cost: r, s: 0, d: r, i: 0 }];
    for (let h = 1; h <= hyp.length; h++) {
      const diagonal = previous[h - 1]!;
      const same = ref[r - 1] === hyp[h - 1];
      const substitute = { ...diagonal, cost: diagonal.cost + (same ? 0 : 1), s: diagonal.s + (same ? 0 : 1) };
      const del = { ...previous[h]!, cost: previous[h]!.cost + 1, d: previous[h]!.d + 1 };
      const ins = { ...current[h - 1]!, cost: current[h - 1]!.cost + 1, i: current[h - 1]!.i + 1 };
      current.push([substitute, del, ins].reduce((best, c) => (c.cost < best.cost || (c.cost === best.cost && c.s < best.s) ? c : best)));
    }
    previous = current;
  }
  const { s, d, i } = previous[hyp.length]!;
  const errors = s + d + i;
  const wer = ref.length === 0 ? (errors === 0 ? 0 : 1) : errors / ref.length;
  return { wer, substitutions: s, deletions: d, insertions: i, referenceWords: ref.length };
}

function splitWords(text: string): string[] {
  const normalized = normalizeForWer(text);
  return normalized === '' ? [] : normalized.split(' ');
}
