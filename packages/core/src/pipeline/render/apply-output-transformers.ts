import type { OutputFormat } from '../../contract/validation/prediction-input.ts';
import { renderText } from './render-text.ts';
import { renderTranscript } from './render-transcript.ts';
import type { RenderedTranscript } from './render-transcript.ts';
import type { TextTransformer } from './parse-output-transformers.ts';
import { shapeOutput } from './shape-output.ts';
import type { ShapedOutput } from './shape-output.ts';
import type { Transcript } from '../../contract/output/transcript-model.ts';

/** Everything that decides a prediction's `output`. */
export interface OutputRequest {
  model: Transcript;
  /** `output_format` of the input (spec 2.2). */
  format: OutputFormat;
  /** `post_process` of the input: null when absent or null (spec 2.3.1). */
  postProcess: readonly string[] | null;
  /** Post-processing results by type (spec 2.4); ignored when `postProcess` is null. */
  results: Readonly<Record<string, unknown>>;
  /** Parsed `X-Service-Output-Transformers` header, or null when absent (spec 4.4). */
  transformer: TextTransformer | null;
}

/** The prediction `output`: a transcript, or `{transcript, results}` (spec 2.3.1–2.3.2). */
export type PredictionOutput = RenderedTranscript | ShapedOutput<RenderedTranscript>;

/**
 * The prediction `output` with the output control header applied (spec 4.4, 2.3.1–2.3.2).
 * Without a transformer: the transcript in `format`, shaped by shapeOutput. With the `text`
 * transformer: the transcript becomes plain text made with its switches, whatever
 * `output_format` says; when `postProcess` is a list the `transcript` member is that text and
 * `results` stay as they are (the header never changes post-processing results).
 */
export function applyOutputTransformers(request: OutputRequest): PredictionOutput {
  const { model, format, postProcess, results, transformer } = request;
  const transcript: RenderedTranscript =
    transformer === null
      ? renderTranscript(model, format)
      : renderText(model, {
          speakers: transformer.speakers,
          timestamps: transformer.timestamps,
          pauses: transformer.pauses,
        });
  return shapeOutput(transcript, postProcess, results);
}
