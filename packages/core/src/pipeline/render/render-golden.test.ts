/**
 * Golden files: every output format and every header switch combination for every fixture.
 * Run with UPDATE_GOLDEN=1 to (re)write __golden__/, then read the diff by eye.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OUTPUT_FORMATS } from '../../contract/validation/prediction-input.ts';
import { TRANSCRIPT_FIXTURES } from './__fixtures__/transcripts.ts';
import { applyOutputTransformers } from './apply-output-transformers.ts';
import { parseOutputTransformers } from './parse-output-transformers.ts';
import { renderTranscript } from './render-transcript.ts';

const GOLDEN_DIR = join(dirname(fileURLToPath(import.meta.url)), '__golden__');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const EXTENSIONS = { json: 'json', json2: 'json', text: 'txt', srt: 'srt', lrc: 'lrc' } as const;
const BOOLS = [true, false] as const;
const HEADERS = BOOLS.flatMap((speakers) =>
  BOOLS.flatMap((timestamps) => BOOLS.map((pauses) => `text?speakers=${speakers}&timestamps=${timestamps}&pauses=${pauses}`)),
);

function serialize(value: unknown): string {
  return typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`;
}

function expectGolden(relativePath: string, actual: string): void {
  const path = join(GOLDEN_DIR, relativePath);
  if (UPDATE) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
  }
  expect(existsSync(path), `${relativePath} is missing; run with UPDATE_GOLDEN=1`).toBe(true);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

/** `text?speakers=true&timestamps=false&pauses=true` → `header.speakers-true.timestamps-false.pauses-true.txt` */
function headerFileName(header: string): string {
  return `header.${header.slice('text?'.length).replaceAll('=', '-').replaceAll('&', '.')}.txt`;
}

describe('golden transcripts', () => {
  for (const [name, model] of Object.entries(TRANSCRIPT_FIXTURES)) {
    describe(name, () => {
      for (const format of OUTPUT_FORMATS) {
        it(`should render ${format} as in the golden file`, () => {
          expectGolden(`${name}/${format}.${EXTENSIONS[format]}`, serialize(renderTranscript(model, format)));
        });
      }
      for (const header of HEADERS) {
        it(`should render header ${header} as in the golden file, whatever output_format is`, () => {
          const outputs = OUTPUT_FORMATS.map((format) =>
            applyOutputTransformers({
              model,
              format,
              postProcess: null,
              results: {},
              transformer: parseOutputTransformers(header),
            }),
          );
          expect(new Set(outputs).size).toBe(1);
          expectGolden(`${name}/${headerFileName(header)}`, serialize(outputs[0]));
        });
      }
      it('should shape json with post_process as in the golden file', () => {
        const output = applyOutputTransformers({
          model,
          format: 'json',
          postProcess: ['summary', 'speaker_names'],
          results:
            model.segments.length === 0
              ? { summary: '', speaker_names: {}, internal_step: 'hidden' }
              : { summary: 'A short summary.', speaker_names: null, internal_step: 'hidden' },
          transformer: null,
        });
        expectGolden(`${name}/post-process.json.json`, serialize(output));
      });
      it('should shape the text header with post_process as in the golden file', () => {
        const output = applyOutputTransformers({
          model,
          format: 'srt',
          postProcess: ['summary'],
          results: { summary: 'A short summary.' },
          transformer: parseOutputTransformers('text?pauses=true'),
        });
        expectGolden(`${name}/post-process.header.json`, serialize(output));
      });
    });
  }
});
