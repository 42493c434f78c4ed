/** Output when `post_process` is a list (spec 2.3.2). */
export interface ShapedOutput<T> {
  /** The transcript in the selected form (output_format, or the text transformer). */
  transcript: T;
  /** One member per requested post-processing type, in request order (spec 2.4 results). */
  results: Record<string, unknown>;
}

/**
 * The prediction `output` (spec 2.1) from a rendered transcript (spec 2.3.1–2.3.2):
 * - `postProcess` null (absent or null in the input) → the rendered transcript itself;
 * - a list, even empty → `{transcript, results}`. `results` holds the requested types found in
 *   `results`, in list order; an empty list gives `{}`. Members of `results` that were not
 *   requested (internal steps) are left out. Completeness is the caller's duty: a prediction
 *   with a failed or missing type fails as a whole (spec 3), so it never reaches this function.
 */
export function shapeOutput<T>(
  transcriptRendered: T,
  postProcess: readonly string[] | null,
  results: Readonly<Record<string, unknown>>,
): T | ShapedOutput<T> {
  if (postProcess === null) return transcriptRendered;
  const picked: Record<string, unknown> = {};
  for (const type of postProcess) {
    if (Object.hasOwn(results, type)) picked[type] = results[type];
  }
  return { transcript: transcriptRendered, results: picked };
}
