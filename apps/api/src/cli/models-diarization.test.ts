import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECOMMENDED_EMBEDDING_MODEL as EMBEDDING, RECOMMENDED_SEGMENTATION_MODEL as SEGMENTATION } from '@transcribe/core';
import {
  DIARIZATION_FIXTURE_MODELS_DIR,
  makeDiarizationReleaseFiles,
  serveReleaseFiles,
  type DiarizationReleaseFiles,
  type ReleaseHost,
} from '@transcribe/core/testing';
import { runScriptToEnd } from '../test-support/spawn-service.ts';

const CLI = 'apps/api/src/cli/models.ts';
const LOOSE = '3dspeaker_speech_eres2net_base_sv_zh-cn_3dspeaker_16k';

// The release host serves the recommended pair made of the fixture graphs (real formats, no speaker
// model): the self-test must refuse them, and --force activate them.
describe('npm run models with the neural diarization models', () => {
  let work: string;
  let modelsDir: string;
  let release: DiarizationReleaseFiles;
  let host: ReleaseHost;
  const models = (args: string[]) => runScriptToEnd(CLI, [...args, '--models-dir', modelsDir], {});

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'models-diarization-cli-'));
    modelsDir = join(work, 'models');
    release = await makeDiarizationReleaseFiles(work);
    host = await serveReleaseFiles(release.files);
  });
  afterAll(async () => {
    await host.close();
    await rm(work, { recursive: true, force: true });
  });

  it('download diarization: the self-test refuses the pair, --force activates it; list shows it with its self-test; remove deletes it', async () => {
    const refused = await models(['download', 'diarization', '--mirror', host.url]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/^downloading sherpa-onnx-pyannote-segmentation-3-0: 100% /m);
    expect(refused.stderr).toMatch(
      /^models: Self-test of the diarization pair sherpa-onnx-pyannote-segmentation-3-0 \+ wespeaker_en_voxceleb_resnet34_LM failed: found 1 speakers where the clip has 2 .*so it was NOT activated and nothing was installed\. Add --force to install it anyway\./m,
    );
    expect((await readdir(modelsDir)).filter((entry) => !entry.startsWith('.'))).toEqual([]);

    const forced = await models(['download', 'diarization', '--mirror', host.url, '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(
      /^self-test: FAILED, 1 speaker, DER \d\.\d{3}, real-time factor \d+\.\d{3} on the two-speaker clip \(30\.0 s\), sherpa-onnx-pyannote-segmentation-3-0 \+ wespeaker_en_voxceleb_resnet34_LM: found 1 speakers where the clip has 2$/m,
    );
    for (const name of [SEGMENTATION, EMBEDDING]) {
      expect(forced.stdout).toMatch(
        new RegExp(
          `^Installed ${name} in ${join(modelsDir, name)} \\(sha256 [0-9a-f]{64}, 0\\.\\d MB; pinned in ${join(modelsDir, 'models.lock.json')}\\)\\. ACTIVATED WITH --force`,
          'm',
        ),
      );
    }
    const lock = JSON.parse(await readFile(join(modelsDir, 'models.lock.json'), 'utf8'));
    expect(Object.keys(lock.models).sort()).toEqual([SEGMENTATION, EMBEDDING].sort());

    // A model put there by hand, loose, as earlier versions said: listed as a diarization model, not "ignored".
    await copyFile(join(DIARIZATION_FIXTURE_MODELS_DIR, `${LOOSE}.onnx`), join(modelsDir, `${LOOSE}.onnx`));
    const listed = await models(['list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain('ignored');
    expect(listed.stdout).toMatch(
      new RegExp(
        `^ready   ${SEGMENTATION}  diarization segmentation  0\\.2 MB  sha256 [0-9a-f]{64}  self-test FAILED with ${EMBEDDING} \\(found 1 speakers where the clip has 2; 1 speaker, DER .*\\), activated with --force$`,
        'm',
      ),
    );
    expect(listed.stdout).toMatch(
      new RegExp(
        `^ready   ${EMBEDDING}  diarization embedding  0\\.1 MB  sha256 [0-9a-f]{64}  self-test FAILED with ${SEGMENTATION} `,
        'm',
      ),
    );
    expect(listed.stdout).toContain(
      `ready   ${LOOSE}  diarization embedding  (${LOOSE}.onnx)  0.1 MB  put there by hand (no hash, no self-test)`,
    );
    expect(listed.stdout).toContain(`diarizer: sherpa-onnx with ${SEGMENTATION} + ${EMBEDDING}`);

    const removed = await models(['remove', EMBEDDING, '--unpin']);
    expect(removed).toMatchObject({ code: 0, stdout: `Removed ${EMBEDDING} from ${modelsDir} and dropped its pin.\n` });
    expect(await readdir(modelsDir)).not.toContain(EMBEDDING);
  });
});
