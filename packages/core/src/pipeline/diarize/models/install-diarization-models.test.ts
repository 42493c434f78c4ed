import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveReleaseFiles, type ReleaseHost } from '../../recognize/models/install/serve-release-files.test-helper.ts';
import { readModelsLock } from '../../recognize/models/install/models-lock.ts';
import { chooseDiarizer } from '../diarize-recording.ts';
import { makeDiarizationReleaseFiles, type DiarizationReleaseFiles } from '../test-support/make-diarization-release-files.ts';
import { findDiarizationCatalogModel, RECOMMENDED_EMBEDDING_MODEL, RECOMMENDED_SEGMENTATION_MODEL } from './diarization-model-catalog.ts';
import { installDiarizationModels, type InstallDiarizationOptions } from './install-diarization-models.ts';
import { listInstalledDiarizationModels } from './list-installed-diarization-models.ts';
import { removeDiarizationModel } from './remove-diarization-model.ts';

const SEGMENTATION = findDiarizationCatalogModel(RECOMMENDED_SEGMENTATION_MODEL)!;
const EMBEDDING = findDiarizationCatalogModel(RECOMMENDED_EMBEDDING_MODEL)!;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

// The release files hold the fixture graphs (real formats, no speaker model): the self-test finds one
// speaker in the two-speaker clip and refuses them, as it must; --force activates them all the same.
describe('installDiarizationModels', () => {
  let work: string;
  let release: DiarizationReleaseFiles;
  let host: ReleaseHost;
  let modelsDir: string;
  const pair = (extra: Partial<InstallDiarizationOptions> = {}): InstallDiarizationOptions => ({
    modelsDir,
    requests: [
      { model: SEGMENTATION, source: { kind: 'release', mirrorUrl: host.url } },
      { model: EMBEDDING, source: { kind: 'release', mirrorUrl: host.url } },
    ],
    retryBaseDelayMs: 10,
    ...extra,
  });

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'diarization-install-'));
    release = await makeDiarizationReleaseFiles(work);
    host = await serveReleaseFiles(release.files);
    modelsDir = path.join(work, 'models');
  });
  afterAll(async () => {
    await host.close();
    await rm(work, { recursive: true, force: true });
  });

  it('should download the pair (resuming a cut transfer), refuse it when the self-test fails, then activate it with force and pin it', async () => {
    const progress: string[] = [];
    // The first body stops after 100 bytes, once they are on disk (never depending on the machine's speed).
    const partial = path.join(modelsDir, '.downloads', `${SEGMENTATION.name}.tar.bz2`);
    host.cutNextAfter(100, () => stat(partial).then((info) => info.size >= 100, () => false));
    const refused = await installDiarizationModels(pair({ onProgress: (name, received, total) => progress.push(`${name} ${received}/${total}`) })).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      code: 'engine_unavailable',
      message: expect.stringMatching(
        /^Self-test of the diarization pair sherpa-onnx-pyannote-segmentation-3-0 \+ wespeaker_en_voxceleb_resnet34_LM failed: found 1 speakers where the clip has 2 \(1 speaker, DER \d\.\d{3}, .*\); a pair must find the 2 speakers .* DER of at most 0\.2, so it was NOT activated .* Add --force to install it anyway\. The download is kept in /,
      ),
    });
    // The cut transfer was resumed where it stopped.
    expect(host.requests.map((request) => request.headers.range)).toContain('bytes=100-');
    expect(progress.at(-1)).toMatch(/^wespeaker_en_voxceleb_resnet34_LM \d+\/\d+$/);
    // Nothing activated, nothing pinned; both downloads kept for --force.
    expect((await readdir(modelsDir)).filter((entry) => !entry.startsWith('.'))).toEqual([]);
    expect((await readModelsLock(modelsDir)).models).toEqual({});
    expect((await readdir(path.join(modelsDir, '.downloads'))).filter((entry) => !entry.endsWith('.json')).sort()).toEqual([
      `${SEGMENTATION.name}.tar.bz2`,
      `${EMBEDDING.name}.onnx`,
    ]);
    expect(await chooseDiarizer(modelsDir)).toMatchObject({ kind: 'builtin' });

    const requestsBefore = host.requests.length;
    const forced = await installDiarizationModels(pair({ force: true }));
    expect(forced).toMatchObject({ forced: true, selfTest: { passed: false, speakers: 1 }, pair: { segmentation: SEGMENTATION.name, embedding: EMBEDDING.name } });
    expect(forced.models.map((one) => [one.model.name, one.status, one.pin])).toEqual([
      [SEGMENTATION.name, 'installed', 'new'],
      [EMBEDDING.name, 'installed', 'new'],
    ]);
    // The kept downloads were complete: no body was fetched again (a resume past the end asks with Range only).
    expect(host.requests.slice(requestsBefore).every((request) => request.headers.range !== undefined)).toBe(true);
    const lock = await readModelsLock(modelsDir);
    expect(lock.models[SEGMENTATION.name]).toMatchObject({ url: `${host.url}${SEGMENTATION.name}.tar.bz2`, sha256: sha256(release.files.get(`/asr-models/${SEGMENTATION.name}.tar.bz2`)!) });
    expect(lock.models[EMBEDDING.name]).toMatchObject({ url: `${host.url}${EMBEDDING.name}.onnx`, sha256: sha256(await readFile(release.embeddingFile)) });
    expect(await readdir(path.join(modelsDir, '.downloads'))).toEqual([]);
    const listed = await listInstalledDiarizationModels(modelsDir);
    expect(listed.map((report) => [report.model.name, report.layout, report.problem, report.install?.forced])).toEqual([
      [SEGMENTATION.name, 'folder', null, true],
      [EMBEDDING.name, 'folder', null, true],
    ]);
    expect(await chooseDiarizer(modelsDir)).toMatchObject({ kind: 'sherpa', names: { segmentation: SEGMENTATION.name, embedding: EMBEDDING.name } });

    // Installed: a release install downloads and tests nothing.
    const before = host.requests.length;
    const again = await installDiarizationModels(pair());
    expect(again).toMatchObject({ selfTest: null, models: [{ status: 'already-installed' }, { status: 'already-installed' }] });
    expect(host.requests.length).toBe(before);
  });

  it('should test one model with the installed partner, refuse other bytes than the pinned ones, and take them once unpinned', async () => {
    // Continues from the forced install above.
    await removeDiarizationModel(modelsDir, EMBEDDING.name);
    const other = path.join(work, 'other', `${EMBEDDING.name}.onnx`);
    await rm(path.dirname(other), { recursive: true, force: true });
    await mkdir(path.dirname(other));
    await writeFile(other, Buffer.concat([await readFile(release.embeddingFile), Buffer.from('changed')]));
    const one = { modelsDir, requests: [{ model: EMBEDDING, source: { kind: 'archive' as const, file: other } }], force: true };
    await expect(installDiarizationModels(one)).rejects.toMatchObject({
      code: 'engine_unavailable',
      message: expect.stringContaining(`does not match the pin for ${EMBEDDING.name}`),
    });
    expect(await readdir(modelsDir)).not.toContain(EMBEDDING.name);
    await removeDiarizationModel(modelsDir, EMBEDDING.name, { unpin: true });
    const taken = await installDiarizationModels(one);
    expect(taken).toMatchObject({ pair: { segmentation: SEGMENTATION.name, embedding: EMBEDDING.name }, forced: true });
    expect(taken.models).toMatchObject([{ status: 'installed', pin: 'new', sha256: sha256(await readFile(other)) }]);
  });

  it('should refuse one model without a partner of the other role installed, and two of one role', async () => {
    const empty = path.join(work, 'empty');
    await expect(installDiarizationModels({ modelsDir: empty, requests: [{ model: EMBEDDING, source: { kind: 'archive', file: release.embeddingFile } }] })).rejects.toMatchObject({
      code: 'engine_unavailable',
      message: expect.stringContaining(`install both, e.g. \`npm run models -- download ${EMBEDDING.name} ${SEGMENTATION.name}\`; nothing was installed`),
    });
    const titanet = findDiarizationCatalogModel('nemo_en_titanet_large')!;
    await expect(installDiarizationModels({ modelsDir: empty, requests: [{ model: EMBEDDING }, { model: titanet }] })).rejects.toMatchObject({ code: 'invalid_input' });
  });
});
