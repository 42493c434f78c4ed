import type { OutputFormat } from '../../contract/validation/prediction-input.ts';
import { renderJson } from './render-json.ts';
import type { JsonTranscript } from './render-json.ts';
import { renderJson2 } from './render-json2.ts';
import type { Json2Transcript } from './render-json2.ts';
import { renderLrc } from './render-lrc.ts';
import { renderSrt } from './render-srt.ts';
import { DEFAULT_TEXT_OPTIONS, renderText } from './render-text.ts';
import type { Transcript } from '../../contract/output/transcript-model.ts';

/** A transcript in one output format: an object for json / json2, a string otherwise. */
export type RenderedTranscript = JsonTranscript | Json2Transcript | string;

/**
 * The transcript in `format` (spec 2.2 `output_format`, spec 2.3.1): an object for `json`
 * (2.3.3) and `json2` (2.3.4), a string for `text` (2.3.5, default text switches), `srt` and
 * `lrc` (2.3.5). All renderers are pure functions of the model.
 */
export function renderTranscript(model: Transcript, format: 'json'): JsonTranscript;
export function renderTranscript(model: Transcript, format: 'json2'): Json2Transcript;
export function renderTranscript(model: Transcript, format: 'text' | 'srt' | 'lrc'): string;
export function renderTranscript(model: Transcript, format: OutputFormat): RenderedTranscript;
export function renderTranscript(model: Transcript, format: OutputFormat): RenderedTranscript {
  switch (format) {
    case 'json':
      return renderJson(model);
    case 'json2':
      return renderJson2(model);
    case 'text':
      return renderText(model, DEFAULT_TEXT_OPTIONS);
    case 'srt':
      return renderSrt(model);
    case 'lrc':
      return renderLrc(model);
  }
}
