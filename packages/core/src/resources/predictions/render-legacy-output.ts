import { renderJson } from '../../pipeline/render/render-json.ts';
import { renderText } from '../../pipeline/render/render-text.ts';
import type { Transcript } from '../../contract/output/transcript-model.ts';
import type { LegacyOutputFormat } from '../../contract/validation/parse-legacy-input.ts';

/**
 * The plain transcript text of the earlier interface variant (spec 9): one line per segment, no
 * time labels, no speaker labels, no trailing newline; `''` for a recording without speech.
 */
export function renderLegacyText(transcript: Transcript): string {
  return renderText(transcript, { speakers: false, timestamps: false, pauses: false }).replace(/\n$/, '');
}

/**
 * The `output` string of a prediction made through the earlier interface variant (spec 9: output
 * is a string), rendered from the stored transcript model:
 * - `text`: renderLegacyText;
 * - `json_verbose`: the `json` transcript (spec 2.3.3) serialised with JSON.stringify;
 * - `txt_file_url`: `textFileUrl`, an absolute URL where the service serves the same text
 *   (`GET …/predictions/{id}/output.txt`, same API key; see docs/api.md).
 */
export function renderLegacyOutput(transcript: Transcript, format: LegacyOutputFormat, textFileUrl: string): string {
  switch (format) {
    case 'text':
      return renderLegacyText(transcript);
    case 'json_verbose':
      return JSON.stringify(renderJson(transcript));
    case 'txt_file_url':
      return textFileUrl;
  }
}
