import type { TranscriptWord } from '../../../../contract/output/transcript-model.ts';
import type { RecognizedSegment } from '../../recognition-engine.ts';
import type { PlattScaling } from '../../confidence-calibration.ts';
import { LEAST_POSTERIOR, POCKETSPHINX_CALIBRATION, pocketsphinxCalibratedConfidence } from './calibrate-pocketsphinx-posterior.ts';

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
 * @param ctm the `-ctm` output of the same run (`uttid channel start duration word posterior`, the
 *   posterior a probability 0..1 from the word lattice's forward-backward pass: pocketsphinx's
 *   `ps_seg_prob`, written by pocketsphinx_batch after its bestpath search). Each utterance's CTM
 *   words are matched to its hypseg words in order; when they differ, that utterance has no scores.
 * @param calibration the map from posterior to the probability that the word is right (default
 *   POCKETSPHINX_CALIBRATION, fitted in bench/confidence.ts); null: the raw posteriors.
 * @returns one segment per utterance that has real words, times in seconds from the start of the
 *   recording (rounded to ms), `language` null; with a matching CTM each word's `confidence` is its
 *   calibrated posterior (pocketsphinxCalibratedConfidence; the raw posterior when `calibration` is
 *   null) and the segment's `avgLogprob` the mean of the natural logs of those confidences (a raw
 *   posterior of 0 counts as 0.001, pocketsphinx's CTM precision), else `confidence` and
 *   `avgLogprob` are null.
 *   Fillers (`<s>`, `</s>`, `<sil>`, `[NOISE]`, `++GARBAGE++`) are dropped and alternatives
 *   such as `can(2)` become `can`. Lines that do not parse are skipped.
 */
export function parsePocketsphinxHypseg(
  output: string,
  utteranceStarts: readonly number[],
  ctm = '',
  calibration: PlattScaling | null = POCKETSPHINX_CALIBRATION,
): RecognizedSegment[] {
  const posteriors = parseCtmPosteriors(ctm);
  const segments: RecognizedSegment[] = [];
  for (const line of output.split('\n')) {
    const fields = line.trim().split(/\s+/);
    const offset = utteranceStarts[Number(fields[0])];
    if (offset === undefined || fields.length < HEADER_FIELDS + 1 || fields[1] !== 'S') continue;
    const parsed = parseWordGroups(fields.slice(HEADER_FIELDS), offset);
    const scored = posteriors.get(fields[0]!);
    const matches = scored !== undefined && scored.length === parsed.length && scored.every((entry, i) => entry.word === parsed[i]!.text);
    const confidences = matches
      ? scored.map((entry) => (calibration === null ? entry.posterior : pocketsphinxCalibratedConfidence(entry.posterior, calibration)))
      : [];
    const words = matches ? parsed.map((word, i) => ({ ...word, confidence: confidences[i]! })) : parsed;
    const first = words[0];
    const last = words.at(-1);
    if (!first || !last) continue;
    segments.push({
      start: first.start,
      end: last.end,
      text: words.map((word) => word.text).join(' '),
      words,
      language: null,
      avgLogprob: matches ? meanLog(confidences) : null,
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

function meanLog(values: readonly number[]): number {
  const sum = values.reduce((total, value) => total + Math.log(Math.max(LEAST_POSTERIOR, value)), 0);
  return Math.round((sum / values.length) * 10000) / 10000;
}

/** CTM lines grouped by utterance id, fillers dropped, in order. */
function parseCtmPosteriors(ctm: string): Map<string, Array<{ word: string; posterior: number }>> {
  const byUtterance = new Map<string, Array<{ word: string; posterior: number }>>();
  for (const line of ctm.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 6) continue;
    const word = cleanWord(fields[4]!);
    const posterior = Number(fields[5]);
    if (word === null || !Number.isFinite(posterior)) continue;
    const list = byUtterance.get(fields[0]!) ?? [];
    list.push({ word, posterior: Math.min(1, Math.max(0, posterior)) });
    byUtterance.set(fields[0]!, list);
  }
  return byUtterance;
}

/** `can(2)` → `can`; fillers and silence markers → null. */
export function cleanWord(token: string): string | null {
  if (token === '' || /^(<.*>|\[.*\]|\+\+.*\+\+)$/.test(token)) return null;
  const word = token.replace(/\(\d+\)$/, '');
  return word === '' ? null : word;
}
