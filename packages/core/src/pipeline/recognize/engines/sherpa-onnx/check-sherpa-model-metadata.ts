import path from 'node:path';
import { AppError } from '../../../../platform/errors/app-error.ts';
import { modelFixCommand } from '../../models/list-installed-models.ts';
import type { CatalogModel, ModelFamily, ModelFileRole } from '../../models/model-catalog.ts';
import { readOnnxMetadata } from './read-onnx-metadata.ts';

/** How sherpa-onnx parses a metadata value: `int` atoi (must be ≥ 0), `ints` / `floats` comma lists, `text` a string. */
type ValueKind = 'int' | 'ints' | 'floats' | 'text';

interface MetadataRule {
  /** The file whose metadata sherpa-onnx reads. */
  role: ModelFileRole;
  /** The keys it must find, by the metadata present (some keys depend on others). */
  keys: (metadata: ReadonlyMap<string, string>) => Array<[string, ValueKind]>;
  /** Consistency checks beyond single keys: a problem, or null. */
  check?: (metadata: ReadonlyMap<string, string>) => string | null;
}

const ints = (...keys: string[]): Array<[string, ValueKind]> => keys.map((key) => [key, 'int']);
const list = (value: string | undefined) => (value ?? '').split(',').filter((part) => part !== '');

/**
 * What each family's loader reads with SHERPA_ONNX_READ_META_DATA* (a missing or empty key, or a
 * negative integer, makes sherpa-onnx call _Exit(-1)): sherpa-onnx/csrc/offline-whisper-model.cc
 * (encoder), offline-sense-voice-model.cc, offline-transducer-nemo-model.cc (encoder),
 * offline-canary-model.cc (encoder; model_type must be EncDecMultiTaskModel), online-nemo-ctc-model.cc
 * (streaming NeMo CTC); Moonshine reads none (offline-moonshine-model.cc). Keys read with a default (blank_id of SenseVoice, is_giga_am,
 * n_alignment_heads, num_decoder_layers) are not required. See docs/model-families.md.
 */
const RULES: Record<ModelFamily, MetadataRule | null> = {
  whisper: {
    role: 'encoder',
    keys: (metadata) => [
      ...ints(
        'n_mels',
        'n_text_layer',
        'n_text_ctx',
        'n_text_state',
        'n_vocab',
        'sot',
        'eot',
        'blank_id',
        'translate',
        'transcribe',
        'is_multilingual',
        'no_timestamps',
        'no_speech',
      ),
      ['sot_sequence', 'ints'],
      ...(Number.parseInt(metadata.get('is_multilingual') ?? '0', 10) !== 0
        ? ([
            ['all_language_tokens', 'ints'],
            ['all_language_codes', 'text'],
          ] as Array<[string, ValueKind]>)
        : []),
    ],
    check: (metadata) => {
      const multilingual = Number.parseInt(metadata.get('is_multilingual') ?? '0', 10) !== 0;
      const tokens = list(metadata.get('all_language_tokens')).length;
      const codes = list(metadata.get('all_language_codes')).length;
      if (multilingual && tokens !== codes) return `all_language_tokens has ${tokens} entries but all_language_codes ${codes}`;
      // The 1501 timestamp tokens (0.00 .. 30.00 s) follow no_timestamps (offline-whisper-model.cc).
      const vocab = Number.parseInt(metadata.get('n_vocab') ?? '0', 10);
      const noTimestamps = Number.parseInt(metadata.get('no_timestamps') ?? '0', 10);
      if (vocab < noTimestamps + 1502)
        return `n_vocab ${vocab} leaves no room for the 1501 timestamp tokens after no_timestamps ${noTimestamps}`;
      return null;
    },
  },
  'sense-voice': {
    role: 'model',
    keys: (metadata) => [
      ...ints('vocab_size', 'lfr_window_size', 'lfr_window_shift', 'normalize_samples'),
      // FunASR Nano (`comment` containing "Nano") has no language / ITN / CMVN keys.
      ...((metadata.get('comment') ?? '').includes('Nano')
        ? []
        : ([
            ...ints('with_itn', 'without_itn', 'lang_auto', 'lang_zh', 'lang_en', 'lang_ja', 'lang_ko', 'lang_yue'),
            ['neg_mean', 'floats'],
            ['inv_stddev', 'floats'],
          ] as Array<[string, ValueKind]>)),
    ],
  },
  'nemo-transducer': { role: 'encoder', keys: () => ints('vocab_size', 'subsampling_factor', 'pred_rnn_layers', 'pred_hidden') },
  'nemo-canary': {
    role: 'encoder',
    keys: () => [['model_type', 'text'], ...ints('vocab_size', 'subsampling_factor', 'feat_dim')],
    check: (metadata) =>
      metadata.get('model_type') === 'EncDecMultiTaskModel'
        ? null
        : `model_type is '${metadata.get('model_type')}', not 'EncDecMultiTaskModel'`,
  },
  moonshine: null,
  // online-nemo-ctc-model.cc (Init): every key through SHERPA_ONNX_READ_META_DATA.
  'nemo-ctc-streaming': {
    role: 'model',
    keys: () =>
      ints(
        'window_size',
        'chunk_shift',
        'subsampling_factor',
        'vocab_size',
        'cache_last_channel_dim1',
        'cache_last_channel_dim2',
        'cache_last_channel_dim3',
        'cache_last_time_dim1',
        'cache_last_time_dim2',
        'cache_last_time_dim3',
      ),
  },
  // Not checked: the streaming Zipformer's encoder keys were not verified against a file here.
  'zipformer-transducer-streaming': null,
};

/** Why `value` of `kind` would make sherpa-onnx exit, or null. */
function valueProblem(value: string | undefined, kind: ValueKind): string | null {
  if (value === undefined || value === '') return 'is missing';
  if (kind === 'int' && /^\s*-\s*[1-9]/.test(value)) return `is negative (${value})`;
  if (kind === 'ints' && !list(value).every((part) => /^\s*-?\d+\s*$/.test(part)))
    return `is not a comma-separated list of integers (${value.slice(0, 40)})`;
  if (kind === 'floats' && !list(value).every((part) => Number.isFinite(Number(part)))) return 'is not a comma-separated list of numbers';
  return null;
}

/**
 * A multilingual Whisper model decodes a requested language only when its `all_language_codes`
 * lists it: sherpa-onnx's OfflineWhisperGreedySearchDecoder calls exit(-1) on any other
 * ("Invalid language"). The catalog's language list is what the model card says; this is what the
 * file holds.
 * @throws AppError `invalid_input` (param `language`).
 */
function assertWhisperKnowsLanguage(model: CatalogModel, metadata: ReadonlyMap<string, string>, language: string | null): void {
  if (model.family !== 'whisper' || language === null || Number.parseInt(metadata.get('is_multilingual') ?? '0', 10) === 0) return;
  const codes = list(metadata.get('all_language_codes')).map((code) => code.trim());
  if (codes.length === 0 || codes.includes(language)) return;
  throw new AppError(
    'invalid_input',
    `sherpa-onnx model ${model.name} does not recognise ${language}: its encoder lists ${codes.join(', ')}`,
    { param: 'language' },
  );
}

/**
 * Checks, before sherpa-onnx loads `model`, that its file holds every metadata key sherpa-onnx
 * reads: sherpa-onnx ends the whole process with _Exit(-1) (exit status 255) on a missing key, which
 * no JavaScript try/catch can stop, and its message names the key but not the file. Reads only the
 * metadata (readOnnxMetadata), never the weights. A file that does not parse as an ONNX model is
 * left to the loader, which fails on it in the recognition child process with its own reason.
 * @param language the language the recognition asks for, or null: multilingual Whisper must list it.
 * @throws AppError `invalid_input` (param `language`) when multilingual Whisper's metadata does not
 *   list `language`; `engine_unavailable`: `sherpa-onnx model NAME is broken: FILE lacks the metadata
 *   key 'KEY' (…); reinstall it with \`npm run models -- download NAME\``.
 */
export async function assertSherpaModelMetadata(model: CatalogModel, directory: string, language: string | null = null): Promise<void> {
  const rule = RULES[model.family];
  if (!rule) return;
  const file = path.join(directory, model.files[rule.role] ?? '');
  const metadata = await readOnnxMetadata(file);
  if (metadata === null) return;
  assertWhisperKnowsLanguage(model, metadata, language);
  const found = rule.keys(metadata).map(([key, kind]) => [key, valueProblem(metadata.get(key), kind)] as const);
  const missing = found.filter(([, problem]) => problem === 'is missing').map(([key]) => `'${key}'`);
  const problems = missing.length === 0 ? [] : [`lacks the metadata key${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`];
  for (const [key, problem] of found)
    if (problem !== null && problem !== 'is missing') problems.push(`has metadata key '${key}' that ${problem}`);
  const extra = problems.length === 0 ? (rule.check?.(metadata) ?? null) : null;
  if (extra) problems.push(`has metadata that sherpa-onnx refuses: ${extra}`);
  if (problems.length === 0) return;
  throw new AppError(
    'engine_unavailable',
    `sherpa-onnx model ${model.name} is broken: ${file} ${problems.join(', ')} (sherpa-onnx reads them from the ${model.family} ${rule.role} file and ends the process without them); reinstall it with \`${modelFixCommand(model.name)}\``,
  );
}
