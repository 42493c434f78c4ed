/**
 * Prints one real example of every output format for docs/formats.md (spec 2.3, 4.4): starts a
 * test service (PGlite), transcribes one recording once through the HTTP API, then re-renders the
 * stored transcript model with the core renderers in json, json2, text, srt, lrc and with the
 * header `text?speakers=true&timestamps=false&pauses=true`.
 *
 * Usage: `npx tsx apps/api/src/scripts/render-format-examples.ts [file under shared/audio]`
 * (default `multispeaker/pyannote_sample.wav`). Output goes to stdout, progress to stderr.
 */
import {
  applyOutputTransformers,
  authenticateApiKey,
  findPrediction,
  parseOutputTransformers,
  type OutputFormat,
  type Transcript,
  getSucceededTranscript,
} from '@transcribe/core';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { serveFiles } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

const FORMATS: readonly OutputFormat[] = ['json', 'json2', 'text', 'srt', 'lrc'];
const HEADER = 'text?speakers=true&timestamps=false&pauses=true';

/** Creates one prediction for `audioUrl`, waits for it and returns its stored transcript model. */
async function transcribeOnce(t: TestService, audioUrl: string): Promise<Transcript> {
  const response = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ input: { audio: audioUrl } }),
  });
  if (response.status !== 201) throw new Error(`create answered ${response.status}: ${await response.text()}`);
  const { id } = (await response.json()) as { id: string };
  const done = await pollPrediction(t.replicateBase, t.key, id, 600_000);
  if (done.status !== 'succeeded') throw new Error(`prediction ${id} ${String(done.status)}: ${String(done.error)}`);
  const key = await authenticateApiKey(t.service.ctx.database.db, t.key);
  const row = await findPrediction(t.service.ctx.database.db, id, key.id);
  return getSucceededTranscript(row);
}

/** Every format of `model`, as the API would return it with `post_process` absent. */
function printAll(model: Transcript): void {
  const render = (format: OutputFormat, header: string | null) =>
    applyOutputTransformers({ model, format, postProcess: null, results: {}, transformer: parseOutputTransformers(header) });
  for (const format of FORMATS) {
    const output = render(format, null);
    console.log(`===== output_format: ${format}`);
    console.log(typeof output === 'string' ? output : JSON.stringify(output, null, 2));
  }
  console.log(`===== header X-Service-Output-Transformers: ${HEADER}`);
  console.log(render('json', HEADER));
}

async function main(): Promise<void> {
  const file = process.argv[2] ?? 'multispeaker/pyannote_sample.wav';
  const t = await startTestService('pglite');
  const files = await serveFiles(AUDIO_DIR);
  try {
    console.error(`transcribing ${file} …`);
    printAll(await transcribeOnce(t, `${files.url}/${file}`));
  } finally {
    await files.close();
    await t.stop();
  }
}

await main();
