import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findCatalogModel } from '@transcribe/core';
import { packTarBz2, writeFixtureModel } from '@transcribe/core/testing';
import { runScriptToEnd } from '../test-support/spawn-service.ts';

const CLI = 'apps/api/src/cli/models.ts';
const TINY = findCatalogModel('sherpa-onnx-whisper-tiny')!;
const BASE = findCatalogModel('sherpa-onnx-whisper-base')!;
const MOONSHINE = findCatalogModel('sherpa-onnx-moonshine-tiny-en-int8')!;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('npm run models', () => {
  let modelsDir: string;
  let work: string;
  let tinyArchive: string;
  let otherArchive: string;
  let good: Buffer;
  const models = (args: string[], env: Record<string, string> = {}) => runScriptToEnd(CLI, [...args, '--models-dir', modelsDir], env);

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'models-cli-work-'));
    await writeFixtureModel(join(work, 'a'), TINY);
    tinyArchive = join(work, `${TINY.name}.tar.bz2`);
    await packTarBz2(join(work, 'a'), TINY.name, tinyArchive);
    good = await readFile(tinyArchive);
    await writeFixtureModel(join(work, 'b'), TINY);
    await writeFile(join(work, 'b', TINY.name, TINY.files.tokens!), 'changed 0\n', { flag: 'a' });
    otherArchive = join(work, 'other', `${TINY.name}.tar.bz2`);
    await mkdir(join(work, 'other'));
    await packTarBz2(join(work, 'b'), TINY.name, otherArchive);
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });
  beforeEach(async () => {
    if (modelsDir) await rm(modelsDir, { recursive: true, force: true });
    modelsDir = await mkdtemp(join(tmpdir(), 'models-cli-'));
  });

  it('should say that nothing is installed in an empty MODELS_DIR', async () => {
    const { code, stdout } = await models(['list']);
    expect(code).toBe(0);
    expect(stdout).toBe(
      `MODELS_DIR ${modelsDir}\nNo sherpa-onnx model is installed. See \`npm run models -- catalog\`, then \`npm run models -- download NAME\`.\n` +
        'No neural diarization model is installed (the built-in diarizer runs). Install the recommended pair with `npm run models -- download diarization`.\n',
    );
  });

  it('should refuse a local archive whose self-test fails, then install it with --force and list it with size, hash and self-test', async () => {
    const refused = await models(['install', tinyArchive]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^models: Self-test of sherpa-onnx-whisper-tiny failed: .*so it was NOT activated and nothing was installed\. Add --force to install it anyway\.$/m,
    );
    // Nothing left but the folder of downloads and install claims, holding the failed self-test
    // (so that the same archive is not tested again).
    expect(await readdir(modelsDir)).toEqual(['.downloads']);
    expect(await readdir(join(modelsDir, '.downloads'))).toEqual([`${TINY.name}.self-test.json`]);
    const again = await models(['install', tinyArchive]);
    expect(again.code).toBe(1);
    expect(again.stdout).not.toContain('self-test: decoding');
    expect(again.stderr).toMatch(
      /^models: Self-test of sherpa-onnx-whisper-tiny failed: .* \(remembered from the self-test of .* on these same bytes, not run again; add --retest to run it again\);/m,
    );

    const forced = await models(['install', tinyArchive, '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(
      /^self-test: FAILED, (WER \d\.\d{3}, real-time factor \d+\.\d{3}, heard ".*"|decoding failed: .*) \(11\.0 s of English\)$/m,
    );
    expect(forced.stdout).toContain(
      `Installed ${TINY.name} in ${join(modelsDir, TINY.name)} (archive sha256 ${sha256(good)}, 0.${Math.round(good.length / 1e5)} MB; pinned in ${join(modelsDir, 'models.lock.json')}). ACTIVATED WITH --force although the self-test failed.`,
    );
    const lock = JSON.parse(await readFile(join(modelsDir, 'models.lock.json'), 'utf8'));
    expect(lock.models[TINY.name]).toMatchObject({ url: `file://${tinyArchive}`, bytes: good.length, sha256: sha256(good) });

    const { stdout } = await models(['list']);
    expect(stdout).toMatch(
      new RegExp(
        `^ready   ${TINY.name}  whisper  99 languages  \\d+\\.\\d MB  sha256 ${sha256(good)}  self-test FAILED \\(.+\\), activated with --force$`,
        'm',
      ),
    );

    // The pin holds: another archive of the same name is refused with both hashes, so is a wrong --sha256.
    const other = await models(['install', otherArchive, '--force']);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(`archive SHA-256 pinned ${sha256(good)}`);
    expect(other.stderr).toContain(`this one has ${sha256(await readFile(otherArchive))}; nothing was installed`);
    const wrong = await models(['install', tinyArchive, '--force', '--sha256', 'f'.repeat(64)]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(
      `models: SHA-256 mismatch for ${TINY.name}: --sha256 expects ${'f'.repeat(64)}, file://${tinyArchive} has ${sha256(good)}; nothing was installed\n`,
    );
  });

  it('should install from a folder and remove a model, keeping its pin unless --unpin', async () => {
    const installed = await models(['install', join(work, 'a', TINY.name), '--force']);
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain(`Installed ${TINY.name} in ${join(modelsDir, TINY.name)} (folder,`);
    const removed = await models(['remove', TINY.name]);
    expect(removed.stdout).toBe(
      `Removed ${TINY.name} from ${modelsDir}; its pin in models.lock.json stays (a reinstall must match it; --unpin drops it).\n`,
    );
    expect((await readdir(modelsDir)).sort()).toEqual(['.downloads', 'models.lock.json']);
    expect((await models(['list'])).stdout).toMatch(new RegExp(`^pinned  ${TINY.name}  not installed  `, 'm'));
    const unpinned = await models(['remove', TINY.name, '--unpin']);
    expect(unpinned.stdout).toBe(`${TINY.name} was not installed in ${modelsDir}; dropped its pin.\n`);
    expect(JSON.parse(await readFile(join(modelsDir, 'models.lock.json'), 'utf8')).models).toEqual({});
  });

  it('should list broken models with the fix, earlier install records, and folders it does not know', async () => {
    await writeFixtureModel(modelsDir, MOONSHINE);
    await rm(join(modelsDir, MOONSHINE.name, 'tokens.txt'), { force: true });
    await mkdir(join(modelsDir, 'vosk-model-en'));
    // An install record of the earlier format (no self-test, no model-files hash) still lists.
    await writeFixtureModel(modelsDir, TINY);
    await writeFile(
      join(modelsDir, TINY.name, '.install.json'),
      JSON.stringify({ archiveUrl: TINY.archiveUrl, sha256: 'e'.repeat(64), verified: true, installedAt: '2026-11-20T10:00:00.000Z' }),
    );
    const { code, stdout } = await models(['list']);
    expect(code).toBe(0);
    expect(stdout).toContain(`broken  ${MOONSHINE.name}  moonshine  en`);
    expect(stdout).toContain(
      `        ${join(modelsDir, MOONSHINE.name, 'tokens.txt')} is missing\n        fix: npm run models -- download ${MOONSHINE.name}`,
    );
    expect(stdout).toContain('other   vosk-model-en  (not in the catalog; ignored)');
    expect(stdout).toMatch(
      new RegExp(
        `^ready   ${TINY.name}  .*  sha256 ${'e'.repeat(64)}  no self-test \\(installed by an earlier version; reinstall to run it\\)$`,
        'm',
      ),
    );
  });

  it('should show the catalog, marking the recommended model and how hashes are pinned', async () => {
    const { code, stdout } = await models(['catalog']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Columns: STATE \(ready or broken when installed/);
    expect(stdout).toContain('SIZE (millions of parameters)');
    expect(stdout).toMatch(/^STATE +NAME +FAMILY +SIZE +LANGUAGES +HASH$/m);
    expect(stdout).toContain('-       sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8  nemo-transducer  600M  en  pinned on first install');
    expect(stdout).toContain(`-       ${BASE.name}  whisper  74M  99 languages  pinned on first install  (recommended for CPU)`);
    expect(stdout.match(/^\S+\s+sherpa-onnx-\S+ {2}(?!diarization)/gm)).toHaveLength(15);
    // the streaming models (live text in realtime sessions), with what they are for
    expect(stdout).toContain(
      '-       sherpa-onnx-nemo-streaming-fast-conformer-ctc-en-80ms-int8  nemo-ctc-streaming  114M  en  pinned on first install',
    );
    expect(stdout).toContain(
      '-       sherpa-onnx-streaming-zipformer-en-2023-06-26  zipformer-transducer-streaming  70M  en  pinned on first install',
    );
    expect(stdout).toMatch(/80 ms chunks: live text as you speak/);
    // Then the diarization models, with their published figures and the recommended pair.
    expect(stdout).toContain(
      '-       sherpa-onnx-pyannote-segmentation-3-0  diarization segmentation  1.5M  5.7 MB  MIT  pinned on first install  (recommended pair)',
    );
    expect(stdout).toContain(
      '-       wespeaker_en_voxceleb_resnet34_LM  diarization embedding  6.63M  26.5 MB  CC BY 4.0 (the VoxCeleb licence, WeSpeaker docs/pretrained.md)  pinned on first install  (recommended pair)',
    );
    expect(stdout).toContain('        published: EER 0.797 % on VoxCeleb1-O cleaned');
  });

  it('should refuse a --sha256 that is not 64 hex digits with the usage exit code, and take either case', async () => {
    for (const bad of ['abc', 'z'.repeat(64), `${'a'.repeat(63)}`]) {
      const refused = await models(['install', tinyArchive, '--sha256', bad]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(
        `models: --sha256 takes the archive's SHA-256 as 64 hex digits (as sha256sum prints it), not "${bad}"\nUsage:`,
      );
    }
    expect(await readdir(modelsDir)).toEqual([]);
    const upper = await models(['install', tinyArchive, '--force', '--sha256', sha256(good).toUpperCase()]);
    expect(upper.code).toBe(0);
  });

  it('should list what it can read of a damaged lock file and say how to repair each damaged part', async () => {
    await writeFixtureModel(modelsDir, TINY);
    const lockFile = join(modelsDir, 'models.lock.json');
    const pin = {
      url: TINY.archiveUrl,
      bytes: 1000,
      sha256: 'a'.repeat(64),
      contentSha256: 'b'.repeat(64),
      pinnedAt: '2026-11-20T10:00:00.000Z',
    };
    await writeFile(
      lockFile,
      JSON.stringify({ lockfileVersion: 1, models: { [BASE.name]: pin, [MOONSHINE.name]: { ...pin, sha256: 'nope' } } }),
    );
    const entry = await models(['list']);
    expect(entry.code).toBe(1);
    expect(entry.stdout).toMatch(new RegExp(`^ready   ${TINY.name}  `, 'm'));
    expect(entry.stdout).toContain(`pinned  ${BASE.name}  not installed  0.0 MB  sha256 ${'a'.repeat(64)}`);
    expect(entry.stdout).not.toContain(MOONSHINE.name);
    expect(entry.stderr).toBe(
      `models: entry "${MOONSHINE.name}" of ${lockFile} is damaged (sha256 is neither null nor 64 lowercase hex digits): correct it by hand from another copy of the file, ` +
        `or drop it with \`npm run models -- remove ${MOONSHINE.name} --unpin\` (the next install of ${MOONSHINE.name} then pins again)\n`,
    );
    // The repair it names works.
    expect((await models(['remove', MOONSHINE.name, '--unpin'])).code).toBe(0);
    expect(await models(['list'])).toMatchObject({ code: 0, stderr: '' });

    await writeFile(lockFile, '{"lockfileVersion": 1, "models": {');
    const file = await models(['list']);
    expect(file.code).toBe(1);
    expect(file.stdout).toMatch(new RegExp(`^ready   ${TINY.name}  `, 'm'));
    expect(file.stderr).toMatch(
      new RegExp(
        `^models: ${lockFile.replace(/[.*+?^$()|[\]\\]/g, '\\$&')} is damaged \\(.+\\): no pin can be read, and installs refuse to run until it is repaired; restore it from version control or a backup, or delete it \\(the next install of each model then pins again\\)\n$`,
      ),
    );
    expect((await models(['catalog'])).code).toBe(1);
  });

  it('should exit 3 (no such name) on an unknown model or an unnamed archive, 2 on an unknown option, with guidance', async () => {
    const unknown = await models(['download', 'whisper-huge']);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('models: unknown model "whisper-huge"; see `npm run models -- catalog`');
    const unnamed = join(work, 'mystery.tar.bz2');
    await writeFile(unnamed, good);
    const guess = await models(['install', unnamed]);
    expect(guess.code).toBe(3);
    expect(guess.stderr).toContain('"mystery" is not in the catalog');
    // --trust-unverified is gone: an unknown option, answered with the usage, which no longer offers it.
    const removedFlag = await models(['download', TINY.name, '--trust-unverified']);
    expect(removedFlag.code).toBe(2);
    expect(removedFlag.stderr).toMatch(/^models: Unknown option '--trust-unverified'/);
    const usage = removedFlag.stderr.slice(removedFlag.stderr.indexOf('Usage:'));
    expect(usage).toContain('npm run models -- install FILE.tar.bz2|FILE.onnx|DIR');
    expect(usage).not.toContain('trust-unverified');
  });
});
