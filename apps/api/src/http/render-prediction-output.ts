import {
  applyOutputTransformers,
  parseOutputTransformers,
  renderLegacyOutput,
  signLegacyTextUrl,
  type LegacyOutputFormat,
  type PredictionRow,
} from '@transcribe/core';

/**
 * The `output` of a succeeded prediction as this request should see it: the stored default form, or
 * re-rendered as plain text when `X-Service-Output-Transformers` is sent on this request or was sent
 * on create (spec 4.4). A prediction made through the earlier interface variant (spec 9) always
 * gets its legacy string (renderLegacyOutput), whatever the header says. With `row` null it only
 * validates the header.
 * @param apiBaseUrl absolute API base, for the `txt_file_url` form.
 * @param keyHash stored hash of the prediction's API key, which signs the `txt_file_url`
 *   (sign-legacy-text-url.ts); without it the URL is unsigned and needs the key.
 * @throws AppError `invalid_input` (422) for a malformed header.
 */
export function renderPredictionOutput(
  row: PredictionRow | null,
  header: string | null,
  apiBaseUrl = '',
  keyHash: string | null = null,
): unknown {
  const transformer = parseOutputTransformers(header);
  if (!row) return null;
  if (row.transcript === null) return row.output;
  const model = row.transcript;
  if (row.legacyFormat) {
    const url =
      keyHash && row.completedAt
        ? signLegacyTextUrl(apiBaseUrl, { id: row.id, completedAt: row.completedAt, keyHash })
        : legacyTextUrl(apiBaseUrl, row.id);
    return renderLegacyOutput(model, row.legacyFormat as LegacyOutputFormat, url);
  }
  if (!transformer) return row.output;
  const params = row.params;
  return applyOutputTransformers({
    model,
    format: params.output_format,
    postProcess: params.post_process,
    results: (row.results ?? {}) as Record<string, unknown>,
    transformer,
  });
}

/** Where the text of a prediction is served to its key (`txt_file_url`, spec 9): `{apiBaseUrl}/predictions/{id}/output.txt`. */
export function legacyTextUrl(apiBaseUrl: string, id: string): string {
  return `${apiBaseUrl}/predictions/${id}/output.txt`;
}
