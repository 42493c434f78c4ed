import { access, constants } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../../../platform/errors/app-error.ts';
import { parsePocketsphinxHypseg } from './parse-pocketsphinx-hypseg.ts';
import { POCKETSPHINX_CALIBRATION, POCKETSPHINX_LOW_LOGPROB_LIMIT } from './calibrate-pocketsphinx-posterior.ts';
import type { PlattScaling } from '../../confidence-calibration.ts';
import { decodeInParallel } from '../../decode-in-parallel.ts';
import { pocketsphinxBeamArgs } from '../../recognition-profile.ts';
import { planUtterances, type PlanUtterancesOptions } from '../../plan-utterances.ts';
import type { RecognitionEngine, RecognitionRequest, RecognitionSession, RecognizedSegment } from '../../recognition-engine.ts';
import { assertPcm16kMono, readWavLayout } from '../../../decode/read-wav-layout.ts';
import { WAV_HEADER_BYTES } from '../../../decode/encode-wav-header.ts';
import { openWarmPocketsphinx, type WarmPocketsphinx } from './open-warm-pocketsphinx.ts';

export interface PocketsphinxOptions {
  /** Default `/usr/bin/pocketsphinx_batch` (Debian package `pocketsphinx`). */
  binaryPath?: string;
  /** Default `/usr/share/pocketsphinx/model/en-us` (package `pocketsphinx-en-us`). */
  modelDir?: string;
  /** Timeout = 60 s + timeoutFactor × seconds to decode (default 10: it runs at ~0.3–0.8× real time, slower on a loaded machine). */
  timeoutFactor?: number;
  /** Parallel processes, each decoding a share of the utterances (default 2). */
  processes?: number;
  /** How VAD intervals become utterances (see plan-utterances.ts). */
  plan?: PlanUtterancesOptions;
  /**
   * The map from lattice posterior to the reported word confidence (default POCKETSPHINX_CALIBRATION,
   * fitted in bench/confidence.ts); null: report the raw posteriors (the bench fits on them).
   */
  calibration?: PlattScaling | null;
}

/**
 * Decoder options for a live turn the server VAD cut (RecognitionRequest.tightCut): no
 * spectral-subtraction noise removal. pocketsphinx tracks the noise floor from each utterance's start
 * (fe_noise.c); a VAD turn is 1–5 s starting 300 ms before its speech, too little to learn it from.
 * Measured on PocketSphinx 5prealpha en-us (24 kHz PCM in, 2026-11-29): jfk.wav's four VAD turns
 * scored WER 0.545 with it and 0.227 without (the clip as a file: 0.227); 58.5 s of read speech in 12
 * turns (jfk, two LibriSpeech and six Hi-Fi TTS clips) 0.422 with, 0.328 without (as a file: 0.391).
 * A whole 11 s clip committed as one turn does better with it (0.27 against 0.50), so client commits keep it.
 */
const TIGHT_CUT_ARGS = ['-remove_noise', 'no'];

/**
 * The live session's search: at most 5000 HMMs active per frame (pocketsphinx's `-maxhmmpf`; its
 * default is 30000), so a piece is decoded sooner and the last piece of a turn is ready sooner after
 * `speech_stopped` (docs/live.md, "Status"). Measured 2026-11-29 on a quiet 2-core machine
 * (pocketsphinx 5prealpha), one live session, p95 from `speech_stopped` to `completed` / WER of the
 * turns: bench/live.ts's clip 1.66 s / 0.397 with the full search, 0.95–1.12 s / 0.379 with 5000
 * (as a file: 0.397); its held-out clip 0.54 s / 0.360 (as a file 0.347); jfk.wav's turns keep WER
 * 0.227. 3000 was faster still (0.42 s) but lost words on short turns (jfk.wav 0.364, the clip 0.431);
 * `-fwdflat no` besides lost more (0.534). On 43 whole recordings no setting was chosen on (HiFi-TTS
 * 6097 clips 60–99 and the three LibriVox clips) 5000 keeps WER 0.467 with a tenth less CPU.
 * Recordings sent as files keep the full search, which their word-confidence calibration was fitted on.
 */
const LIVE_SEARCH_ARGS = ['-maxhmmpf', '5000'];

const INSTALL_HINT = 'install it with `apt-get install pocketsphinx pocketsphinx-en-us`';

/**
 * Checks that the pocketsphinx_batch binary is executable and the US English model files exist.
 * @throws AppError `engine_unavailable` naming the missing file and the apt command.
 */
export async function assertPocketsphinxAvailable(options: PocketsphinxOptions = {}): Promise<void> {
  const { binaryPath, modelDir } = withDefaults(options);
  const needed: Array<[string, number, string]> = [
    [binaryPath, constants.X_OK, 'binary'],
    [path.join(modelDir, 'en-us', 'mdef'), constants.R_OK, 'acoustic model'],
    [path.join(modelDir, 'en-us.lm.bin'), constants.R_OK, 'language model'],
    [path.join(modelDir, 'cmudict-en-us.dict'), constants.R_OK, 'dictionary'],
  ];
  for (const [file, mode, what] of needed) {
    try {
      await access(file, mode);
    } catch (error) {
      throw new AppError('engine_unavailable', `pocketsphinx ${what} ${file} is missing: ${INSTALL_HINT}`, { cause: error });
    }
  }
}

/**
 * Offline English recogniser on CMU PocketSphinx 5prealpha (Debian's "0.8"), run as
 * `pocketsphinx_batch` processes over the VAD speech intervals (padded and merged into
 * utterances). Word times come from `-hypseg`; word confidence is the word's lattice posterior from
 * `-ctm`, calibrated into the probability that the word is right (options.calibration), and a
 * segment's `avgLogprob` the mean natural log of its words' confidences (docs/formats.md, "Confidence");
 * its `lowLogprobLimit` is POCKETSPHINX_LOW_LOGPROB_LIMIT (ln 0.5) on that calibrated scale.
 * Its n-gram decoder has no biasing, so `prompt` and `hotwords` are not used natively
 * (`nativeHints`): transcribe-recording.ts applies them afterwards as spelling hints.
 * @throws from recognize: AppError `invalid_input` (language other than en), `engine_unavailable`,
 *   `recognition_failed`, `media_unreadable`; `signal.reason` when aborted.
 */
export function createPocketsphinxEngine(options: PocketsphinxOptions = {}): RecognitionEngine {
  const calibrated = options.calibration !== null;
  return {
    name: 'pocketsphinx',
    // on the calibrated scale a segment is doubtful below ln 0.5; raw posteriors keep Whisper's −1
    ...(calibrated ? { lowLogprobLimit: POCKETSPHINX_LOW_LOGPROB_LIMIT } : {}),
    languages: ['en'],
    defaultLanguage: 'en',
    identifiesLanguages: false, // English only: `multilingual: true` is refused before download
    nativeHints: () => ({ prompt: false, hotwords: false }),
    recognize: (request) => recognizeWithPocketsphinx(withDefaults(options), request),
    openSession: () => openPocketsphinxSession(withDefaults(options)),
  };
}

/**
 * A recognition session (RecognitionEngine.openSession) for a live session's pieces: requests for a
 * whole VAD-cut turn or piece (`tightCut`, one speech interval over the whole file, English, no
 * `efficiency`, a 44-byte WAV header) go to one warm `pocketsphinx_batch` process, started when the
 * session opens and kept until `close` (open-warm-pocketsphinx.ts), so the 0.5 s model load is paid
 * once per session. Its segments carry no word confidences (no `-ctm`). Other requests, and every
 * request after the warm process failed, run as `recognize` does.
 */
function openPocketsphinxSession(options: ReturnType<typeof withDefaults>): RecognitionSession {
  let closed = false;
  // started now, while the speaker is still talking, so the first piece does not wait for the model
  let warm: Promise<WarmPocketsphinx> | null = assertPocketsphinxAvailable(options).then(() =>
    openWarmPocketsphinx({
      binaryPath: options.binaryPath,
      modelDir: options.modelDir,
      dataOffset: WAV_HEADER_BYTES,
      searchArgs: [...pocketsphinxBeamArgs(null), ...TIGHT_CUT_ARGS, ...LIVE_SEARCH_ARGS],
      timeoutFactor: options.timeoutFactor,
    }),
  );
  warm.catch(() => {}); // a failed start is seen at the first request: it then runs as `recognize` does
  const servesWarm = (request: RecognitionRequest) =>
    request.tightCut === true &&
    (request.efficiency ?? null) === null &&
    (request.language === null || request.language === 'en') &&
    request.speech.length === 1 &&
    request.speech[0]!.start <= 0 &&
    request.speech[0]!.end >= request.durationSeconds &&
    !request.onUtterance;
  return {
    async recognize(request) {
      if (closed || !warm || !servesWarm(request)) return recognizeWithPocketsphinx(options, request);
      request.signal?.throwIfAborted();
      const layout = await readWavLayout(request.wavPath);
      assertPcm16kMono(layout, request.wavPath);
      const process = await warm.catch(() => null);
      if (!process || process.ended || layout.dataOffset !== WAV_HEADER_BYTES) return recognizeWithPocketsphinx(options, request);
      const line = await process.decode(request.wavPath, request.durationSeconds, request.signal);
      request.onProgress?.(1);
      return parsePocketsphinxHypseg(line.replace(/^\d+ /, '0 '), [0], '', options.calibration).map((segment) => ({
        ...segment,
        language: 'en',
      }));
    },
    async close() {
      closed = true;
      const opened = warm;
      warm = null;
      await (await opened?.catch(() => null))?.close();
    },
  };
}

async function recognizeWithPocketsphinx(
  options: ReturnType<typeof withDefaults>,
  request: RecognitionRequest,
): Promise<RecognizedSegment[]> {
  if (request.language !== null && request.language !== 'en') {
    throw new AppError('invalid_input', `The pocketsphinx engine recognises only English (en), not ${request.language}`, {
      param: 'language',
    });
  }
  request.signal?.throwIfAborted();
  const utterances = planUtterances(request.speech, request.durationSeconds, options.plan);
  if (utterances.length === 0) return [];
  await assertPocketsphinxAvailable(options);
  const layout = await readWavLayout(request.wavPath);
  assertPcm16kMono(layout, request.wavPath);
  const output = await decodeInParallel({
    ...options,
    wavPath: request.wavPath,
    layout,
    utterances,
    signal: request.signal,
    onProgress: request.onProgress,
    ...(request.onUtterance ? { onUtteranceResult: reportUtterance(request.onUtterance, utterances) } : {}),
    searchArgs: [...pocketsphinxBeamArgs(request.efficiency ?? null), ...(request.tightCut ? TIGHT_CUT_ARGS : [])],
  });
  const segments = parsePocketsphinxHypseg(
    output.hypseg,
    utterances.map((u) => u.start),
    output.ctm,
    options.calibration,
  );
  return segments.map((segment) => ({ ...segment, language: 'en' }));
}

/** Turns each utterance's `-hypseg` line into its segments for RecognitionRequest.onUtterance. */
function reportUtterance(onUtterance: NonNullable<RecognitionRequest['onUtterance']>, utterances: readonly { start: number }[]) {
  const starts = utterances.map((u) => u.start);
  return (id: number, line: string) =>
    onUtterance({
      index: id,
      count: utterances.length,
      segments: parsePocketsphinxHypseg(line, starts).map((segment) => ({ ...segment, language: 'en' })),
    });
}

function withDefaults(options: PocketsphinxOptions) {
  return {
    ...options,
    binaryPath: options.binaryPath ?? '/usr/bin/pocketsphinx_batch',
    modelDir: options.modelDir ?? '/usr/share/pocketsphinx/model/en-us',
    timeoutFactor: options.timeoutFactor ?? 10,
    processes: Math.max(1, options.processes ?? 2),
    calibration: options.calibration === undefined ? POCKETSPHINX_CALIBRATION : options.calibration,
  };
}
