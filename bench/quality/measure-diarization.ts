import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeToPcm, detectSpeechLevels, diarizeRecording, QUIET_SPEECH_ONSET, resolveDefaultVadModelPath } from '@transcribe/core';
import { diarizationErrorRate, parseRttm, parseUem } from '@transcribe/core/testing';

const RECORDINGS = [
  { name: 'pyannote_sample', speakers: 2 },
  { name: 'ami_debug_tst01', speakers: null },
];

/** The rows of one diarizer, or why it was not measured. */
type DiarizerRows = { rows: string[] } | { skipped: string };

/**
 * DER of the diarizers on the RTTM-annotated recordings (both in-sample), with the known and the estimated speaker count,
 * with no collar and overlap counted, and with a 0.25 s collar:
 * the built-in one always, sherpa-onnx's when `modelsDir` (MODELS_DIR) holds its two models
 * (docs/diarization.md "Which diarizer runs"); a missing or broken model is reported, not thrown.
 * @returns a Markdown section for bench/results/quality.md.
 */
export async function measureDiarization(audioDir: string, workDir: string, modelsDir?: string): Promise<string> {
  const builtin = await measureDiarizer(audioDir, workDir, { engine: 'builtin' });
  const sherpa: DiarizerRows =
    modelsDir === undefined
      ? { skipped: 'not measured: MODELS_DIR is not set (it needs the two model files docs/diarization.md names)' }
      : await measureDiarizer(audioDir, workDir, { engine: 'sherpa', modelsDir }).catch((error: unknown) => ({
          skipped: `not measured: ${error instanceof Error ? error.message : String(error)}`,
        }));
  const table = (result: DiarizerRows) =>
    'skipped' in result
      ? `${result.skipped}.\n`
      : `| recording | set | speakers given | speakers found | DER, no collar | missed s | false alarm s | confusion s | DER, 0.25 s collar |\n| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n${result.rows.join('\n')}\n`;
  return [
    "## Diarization\n\nDER as the field reports it: no collar, overlapped speech counted (pyannote's published AMI / VoxConverse figures); " +
      'the parts (missed, false alarm, confusion) are those of that figure. Beside it the DER with a 0.25 s collar (NIST md-eval `-c 0.25`). VAD from Silero. ' +
      'Both recordings are **in-sample**: the built-in diarizer was tuned on them (bench/quality/voice-split.ts); the shared audio holds no real far-field meeting it has not seen.\n',
    `### Built-in (no downloaded model)\n\n${table(builtin)}`,
    `### sherpa-onnx (pyannote segmentation-3.0 + speaker embedding, from MODELS_DIR)\n\n${table(sherpa)}`,
  ].join('\n');
}

async function measureDiarizer(
  audioDir: string,
  workDir: string,
  diarizer: { engine: 'builtin' } | { engine: 'sherpa'; modelsDir: string },
): Promise<{ rows: string[] }> {
  const rows: string[] = [];
  for (const recording of RECORDINGS) {
    const base = join(audioDir, 'multispeaker', recording.name);
    const wavPath = join(workDir, 'diarize.wav');
    await decodeToPcm(`${base}.wav`, wavPath);
    const reference = parseRttm(await readFile(`${base}.rttm`, 'utf8'));
    const uem = await readFile(`${base}.uem`, 'utf8').then(parseUem, () => undefined);
    // As in a prediction: one VAD pass gives the transcript's speech and the diarizer's quiet speech.
    const { speech, quietSpeech } = await detectSpeechLevels(wavPath, {
      modelPath: resolveDefaultVadModelPath(),
      quietThreshold: QUIET_SPEECH_ONSET,
    });
    const known = new Set(reference.map((t) => t.speaker)).size;
    for (const speakers of [known, null]) {
      const turns = await diarizeRecording({ wavPath, speech, quietSpeech, speakers, ...diarizer });
      const result = diarizationErrorRate(reference, turns, uem ? { uem } : {});
      const collared = diarizationErrorRate(reference, turns, { collar: 0.25, ...(uem ? { uem } : {}) });
      const found = new Set(turns.map((t) => t.speaker)).size;
      rows.push(
        `| ${recording.name} | in-sample | ${speakers ?? 'estimated'} | ${found} | ${result.der.toFixed(3)} | ${result.missed.toFixed(1)} | ${result.falseAlarm.toFixed(1)} | ${result.confusion.toFixed(1)} | ${collared.der.toFixed(3)} |`,
      );
    }
  }
  return { rows };
}
