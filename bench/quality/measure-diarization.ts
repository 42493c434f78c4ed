import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  decodeToPcm,
  detectSpeechLevels,
  diarizationErrorRate,
  diarizeRecording,
  parseRttm,
  parseUem,
  QUIET_SPEECH_ONSET,
  resolveDefaultVadModelPath,
} from '@transcribe/core';

const RECORDINGS = [
  { name: 'pyannote_sample', speakers: 2 },
  { name: 'ami_debug_tst01', speakers: null },
];

/** DER of the diarizer on the RTTM-annotated recordings, with the known and the estimated speaker count. */
export async function measureDiarization(audioDir: string, workDir: string): Promise<string> {
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
      const turns = await diarizeRecording({ wavPath, speech, quietSpeech, speakers });
      const result = diarizationErrorRate(reference, turns, { collar: 0.25, ...(uem ? { uem } : {}) });
      const found = new Set(turns.map((t) => t.speaker)).size;
      rows.push(
        `| ${recording.name} | ${speakers ?? 'estimated'} | ${found} | ${result.der.toFixed(3)} | ${result.missed.toFixed(1)} | ${result.falseAlarm.toFixed(1)} | ${result.confusion.toFixed(1)} |`,
      );
    }
  }
  return `## Diarization (built-in, no downloaded model)\n\nDER with a 0.25 s collar (NIST md-eval \`-c 0.25\`), VAD from Silero.\n\n| recording | speakers given | speakers found | DER | missed s | false alarm s | confusion s |\n| --- | --- | ---: | ---: | ---: | ---: | ---: |\n${rows.join('\n')}\n`;
}
