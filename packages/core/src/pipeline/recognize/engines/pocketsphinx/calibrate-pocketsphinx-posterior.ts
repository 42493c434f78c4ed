import { plattProbability, type PlattScaling } from '../../confidence-calibration.ts';

/** Smallest posterior taken for a log: the CTM writes three decimals, so 0.000 means below 0.0005. */
export const LEAST_POSTERIOR = 0.001;

/**
 * The feature Platt scaling reads from a lattice posterior: its log-odds,
 * ln(p / (1 − p)) with p clamped to [0.001, 0.999] (the CTM's three decimals write 0.000 and 1.000).
 * Chosen over ln p on the calibration half by log-loss (bench/results/confidence.md).
 */
export function pocketsphinxPosteriorFeature(posterior: number): number {
  const p = Math.min(1 - LEAST_POSTERIOR, Math.max(LEAST_POSTERIOR, posterior));
  return Math.log(p / (1 - p));
}

/**
 * Platt scaling of PocketSphinx's lattice word posterior into the probability that the word is right:
 * p = 1 / (1 + exp(−(intercept + slope · pocketsphinxPosteriorFeature(posterior)))), so a posterior
 * of 0.000 reports 0.099 and 1.000 reports 0.948.
 * Fitted by bench/confidence.ts (fitPlattScaling) on the calibration half of the English clips of
 * ../shared/audio (64 clips, 570 words: even positions of the sorted list, each word aligned to the
 * reference as WER), PocketSphinx 5prealpha with Debian's en-us model and the default beam; the
 * held-out half (63 clips, 570 words) has an expected calibration error of 0.024 with it, 0.164
 * with the raw posteriors (bench/results/confidence.md). The raw posteriors are under-confident at
 * the bottom (a third of the words at 0.0–0.1 are right) and over-confident in the middle.
 * Refit (the bench says when the shipped numbers no longer match) after changing the decoder,
 * its model or its beam.
 */
export const POCKETSPHINX_CALIBRATION: PlattScaling = { intercept: 0.3519, slope: 0.3708 };

/**
 * PocketSphinx's `low_logprob` limit on its calibrated avg_logprob: ln 0.5 (≈ −0.693), i.e. the
 * segment is flagged when the geometric mean of its words' calibrated probabilities is below one
 * half, its words more likely wrong than right. A decision rule on the calibrated scale, not a
 * tuned number; Whisper's −1 (geometric mean below 0.37) fired on 1 of 127 segments, which is
 * 40 % wrong words overall. Figures on both halves: bench/results/confidence.md.
 */
export const POCKETSPHINX_LOW_LOGPROB_LIMIT = Math.log(0.5);

/**
 * The calibrated probability (0..1, rounded to 3 decimals) that a word PocketSphinx gave with lattice
 * `posterior` (0..1) is right (POCKETSPHINX_CALIBRATION, or `scaling`).
 */
export function pocketsphinxCalibratedConfidence(posterior: number, scaling: PlattScaling = POCKETSPHINX_CALIBRATION): number {
  return Math.round(plattProbability(pocketsphinxPosteriorFeature(posterior), scaling) * 1000) / 1000;
}
