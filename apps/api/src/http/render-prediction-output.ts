import {
  applyOutputTransformers,
  parseOutputTransformers,
  renderLegacyOutput,
  type LegacyOutputFormat,
  type PredictionInput,
  type PredictionRow,
  type Transcript,
} from '@transcribe/core';

/**
 * The `output` of a succeeded prediction as this request should see it: the stored default form, or
 * re-rendered as plain text when `X-Service-Output-Transformers` is sent on this request or was sent
 * on create (spec 4.4). A prediction made through the earlier interface variant (spec 9) always
 * gets its legacy string (renderLegacyOutput), whatever the header says. With `row` null it only
 * validates the header.
 * @param apiBaseUrl absolute API base, for the `txt_file_url` form.
 * @throws AppError `invalid_input` (422) for a malformed header.
 */
export function renderPredictionOutput(row: PredictionRow | null, header: string | null, apiBaseUrl = ''): unknown {
  const transformer = parseOutputTransformers(header);
  if (!row) return null;
  if (row.transcript === null) return row.output;
  const model = row.transcript as Transcript;
  if (row.legacyFormat) {
    return renderLegacyOutput(model, row.legacyFormat as LegacyOutputFormat, legacyTextUrl(apiBaseUrl, row.id));
  }
  if (!transformer) return row.output;
  const params = row.params as PredictionInput;
  return applyOutputTransformers({
    model,
    format: params.output_format,
    postProcess: params.post_process,
    results: (row.results ?? {}) as Record<string, unknown>,
    transformer,
  });
}

/** Where the text of a prediction is served (`txt_file_url`, spec 9): `{apiBaseUrl}/predictions/{id}/output.txt`. */
export function legacyTextUrl(apiBaseUrl: string, id: string): string {
  return `${apiBaseUrl}/predictions/${id}/output.txt`;
}
