import {
  applyOutputTransformers,
  parseOutputTransformers,
  type PredictionInput,
  type PredictionRow,
  type Transcript,
} from '@transcribe/core';

/**
 * The `output` of a succeeded prediction as this request should see it: the stored default form, or
 * re-rendered as plain text when `X-Service-Output-Transformers` is sent on this request or was sent
 * on create (spec 4.4). With `row` null it only validates the header.
 * @throws AppError `invalid_input` (422) for a malformed header.
 */
export function renderPredictionOutput(row: PredictionRow | null, header: string | null): unknown {
  const transformer = parseOutputTransformers(header);
  if (!row) return null;
  if (!transformer || row.transcript === null) return row.output;
  const params = row.params as PredictionInput;
  return applyOutputTransformers({
    model: row.transcript as Transcript,
    format: params.output_format,
    postProcess: params.post_process,
    results: (row.results ?? {}) as Record<string, unknown>,
    transformer,
  });
}
