/**
 * Calibration of word confidences against references (bench/confidence.ts, docs/formats.md,
 * "Confidence"): which hypothesis words are right, reliability bins, the expected calibration error,
 * and Platt scaling, the two-number map that turns an engine's raw word score into a probability
 * that the word is right.
 */

/** A word's confidence (0..1) and whether it matched the reference. */
export interface ScoredWord {
  confidence: number;
  right: boolean;
}

/** One reliability bin: the words whose confidence lies in [lower, upper) ([lower, 1] for the last). */
export interface ReliabilityBin {
  lower: number;
  upper: number;
  /** Words in the bin. */
  count: number;
  /** Their mean confidence, 0..1. */
  meanConfidence: number;
  /** The share of them that are right, 0..1. */
  accuracy: number;
}

/**
 * For each hypothesis token, whether the minimum-edit (Levenshtein) alignment with the reference
 * matches it to an equal reference token, as word error rate counts (word-error-rate.ts). Among
 * alignments of equal cost the one with the most matches is taken (so `the cat sat on the mat` →
 * `the bat sat on mat today` marks `mat` right, not two substitutions).
 * @param reference normalised reference tokens (normalizeForWer, split at spaces)
 * @param hypothesis normalised hypothesis tokens, same normalisation
 * @returns one boolean per hypothesis token, in order
 */
export function markRightWords(reference: readonly string[], hypothesis: readonly string[]): boolean[] {
  const rows = reference.length + 1;
  const cols = hypothesis.length + 1;
  // score = cost · (cols + rows + 1) − matches: lower is better, cost first, then more matches
  const weight = rows + cols + 1;
  const score: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0) * weight),
  );
  const step = (i: number, j: number) => (reference[i - 1] === hypothesis[j - 1] ? -1 : weight);
  for (let i = 1; i < rows; i++)
    for (let j = 1; j < cols; j++)
      score[i]![j] = Math.min(score[i - 1]![j - 1]! + step(i, j), score[i - 1]![j]! + weight, score[i]![j - 1]! + weight);
  const right = new Array<boolean>(hypothesis.length).fill(false);
  let i = reference.length;
  let j = hypothesis.length;
  while (i > 0 && j > 0) {
    if (score[i]![j] === score[i - 1]![j - 1]! + step(i, j)) {
      right[j - 1] = step(i, j) < 0;
      i--;
      j--;
    } else if (score[i]![j] === score[i - 1]![j]! + weight) i--;
    else j--;
  }
  return right;
}

/**
 * Words grouped into `bins` equal-width confidence bins (0.1 wide for 10); empty bins are left out.
 * @throws RangeError when `bins` is not a positive integer
 */
export function reliabilityBins(words: readonly ScoredWord[], bins = 10): ReliabilityBin[] {
  if (!Number.isInteger(bins) || bins < 1) throw new RangeError(`bins must be a positive integer, not ${bins}`);
  const result: ReliabilityBin[] = [];
  for (let b = 0; b < bins; b++) {
    const inBin = words.filter((word) => Math.min(bins - 1, Math.floor(word.confidence * bins)) === b);
    if (inBin.length === 0) continue;
    result.push({
      lower: b / bins,
      upper: (b + 1) / bins,
      count: inBin.length,
      meanConfidence: inBin.reduce((sum, word) => sum + word.confidence, 0) / inBin.length,
      accuracy: inBin.filter((word) => word.right).length / inBin.length,
    });
  }
  return result;
}

/**
 * Expected calibration error over equal-width bins: Σ_b (n_b / N) · |accuracy_b − mean confidence_b|
 * (Guo et al., "On Calibration of Modern Neural Networks", 2017). 0 is perfectly calibrated.
 * @returns 0..1, or null for no words
 */
export function expectedCalibrationError(words: readonly ScoredWord[], bins = 10): number | null {
  if (words.length === 0) return null;
  return reliabilityBins(words, bins).reduce(
    (sum, bin) => sum + (bin.count / words.length) * Math.abs(bin.accuracy - bin.meanConfidence),
    0,
  );
}

/** Platt scaling: probability = 1 / (1 + exp(−(intercept + slope · feature))). */
export interface PlattScaling {
  intercept: number;
  slope: number;
}

/** The probability Platt scaling gives for `feature` (0..1). */
export function plattProbability(feature: number, scaling: PlattScaling): number {
  return 1 / (1 + Math.exp(-(scaling.intercept + scaling.slope * feature)));
}

/**
 * Fits Platt scaling (Platt, "Probabilistic Outputs for Support Vector Machines", 1999) by maximum
 * likelihood: a one-feature logistic regression solved by Newton's method, with Platt's smoothed
 * targets ((n₊ + 1) / (n₊ + 2) for right, 1 / (n₋ + 2) for wrong) so that a sample the feature
 * separates perfectly still gives finite numbers.
 * @param samples each a feature (any real number, e.g. the log of a raw score) and whether the word is right
 * @throws RangeError for fewer than 2 samples or a non-finite feature
 */
export function fitPlattScaling(samples: ReadonlyArray<{ feature: number; right: boolean }>): PlattScaling {
  if (samples.length < 2) throw new RangeError('Platt scaling needs at least 2 samples');
  if (samples.some((sample) => !Number.isFinite(sample.feature))) throw new RangeError('Platt scaling needs finite features');
  const positives = samples.filter((sample) => sample.right).length;
  const negatives = samples.length - positives;
  const hi = (positives + 1) / (positives + 2);
  const lo = 1 / (negatives + 2);
  let a = Math.log((positives + 1) / (negatives + 1));
  let b = 0;
  for (let iteration = 0; iteration < 100; iteration++) {
    // gradient and Hessian of the negative log-likelihood in (a, b)
    let ga = 0;
    let gb = 0;
    let haa = 1e-9;
    let hab = 0;
    let hbb = 1e-9;
    for (const { feature, right } of samples) {
      const p = plattProbability(feature, { intercept: a, slope: b });
      const residual = p - (right ? hi : lo);
      const weight = p * (1 - p);
      ga += residual;
      gb += residual * feature;
      haa += weight;
      hab += weight * feature;
      hbb += weight * feature * feature;
    }
    const determinant = haa * hbb - hab * hab;
    if (determinant <= 0) break;
    const da = (hbb * ga - hab * gb) / determinant;
    const db = (haa * gb - hab * ga) / determinant;
    a -= da;
    b -= db;
    if (Math.abs(da) < 1e-10 && Math.abs(db) < 1e-10) break;
  }
  return { intercept: a, slope: b };
}
