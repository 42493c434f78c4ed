import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findCatalogModel, listModelFiles, type CatalogModel } from '@transcribe/core';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { runScriptToEnd } from '../test-support/spawn-service.ts';

const CLI = 'apps/api/src/cli/models.ts';
const TINY = findCatalogModel('sherpa-onnx-whisper-tiny')!;
const MOONSHINE = findCatalogModel('sherpa-onnx-moonshine-tiny-en-int8')!;

/** TEST FIXTURE: a model folder of placeholder files (ONNX-like header, no weights). */
async function writePlaceholder(parent: string, model: CatalogModel, skip: string[] = []): Promise<void> {
  await mkdir(join(parent, model.name), { recursive: true });
  for (const file of listModelFiles(model).filter((name) => !skip.includes(name))) {
    await writeFile(join(parent, model.name, file), file.endsWith('.onnx') ? Buffer.from([0x08, 0x07, 0x20]) : 'a 0\n');
  }
}

describe('npm run models', () => {
  let modelsDir: string;
  let archives: string;
  let host: FileServer;
  let sha256: string;
  const models = (args: string[]) => runScriptToEnd(CLI, [...args, '--models-dir', modelsDir], {});

  beforeAll(async () => {
    archives = await mkdtemp(join(tmpdir(), 'models-cli-archives-'));
    await writePlaceholder(archives, TINY);
    await promisify(execFile)('tar', ['-cjf', join(archives, `${TINY.name}.tar.bz2`), '-C', archives, TINY.name]);
    sha256 = createHash('sha256').update(await readFile(join(archives, `${TINY.name}.tar.bz2`))).digest('hex');
    host = await serveFiles(archives);
  });
  afterAll(async () => {
    await host.close();
    await rm(archives, { recursive: true, force: true });
  });
  beforeEach(async () => {
    if (modelsDir) await rm(modelsDir, { recursive: true, force: true });
    modelsDir = await mkdtemp(join(tmpdir(), 'models-cli-'));
  });

  it('should say that nothing is installed in an empty MODELS_DIR', async () => {
    const { code, stdout } = await models(['list']);
    expect(code).toBe(0);
    expect(stdout).toBe(`MODELS_DIR ${modelsDir}\nNo sherpa-onnx model is installed. See \`npm run models -- catalog\`, then \`npm run models -- download NAME\`.\n`);
  });

  it('should list ready and broken models with the fix, and folders it does not know', async () => {
    await writePlaceholder(modelsDir, TINY);
    await writePlaceholder(modelsDir, MOONSHINE, ['tokens.txt']);
    await mkdir(join(modelsDir, 'vosk-model-en'));
    const { code, stdout } = await models(['list']);
    expect(code).toBe(0);
    expect(stdout).toContain(`ready   ${TINY.name}  whisper  99 languages  0.0 MB  installed by hand`);
    expect(stdout).toContain(`broken  ${MOONSHINE.name}  moonshine  en`);
    expect(stdout).toContain(`        ${join(modelsDir, MOONSHINE.name, 'tokens.txt')} is missing\n        fix: npm run models -- download ${MOONSHINE.name}`);
    expect(stdout).toContain('other   vosk-model-en  (not in the catalog; ignored)');
  });

  it('should show the catalog with every model and its unknown sha256', async () => {
    const { code, stdout } = await models(['catalog']);
    expect(code).toBe(0);
    expect(stdout).toContain('-       sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8  nemo-transducer  600M  en  sha256 unknown');
    expect(stdout.match(/^\S+\s+sherpa-onnx-/gm)).toHaveLength(11);
  });

  it('should refuse an unverifiable download, then install it when the hash is given', async () => {
    const mirror = ['--mirror', `${host.url}/`];
    const refused = await models(['download', TINY.name, ...mirror]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`models: No SHA-256 is known for ${TINY.name}`);
    expect(refused.stderr).toContain(`The archive's SHA-256 is ${sha256}`);
    expect(await readdir(modelsDir)).toEqual([]);
    const installed = await models(['download', TINY.name, ...mirror, '--sha256', sha256]);
    expect(installed.code).toBe(0);
    expect(installed.stderr).toBe(`downloading ${TINY.name}: 100% of 0.0 MB\n`);
    expect(installed.stdout).toBe(`Installed ${TINY.name} in ${join(modelsDir, TINY.name)} (archive sha256 ${sha256}, verified).\n`);
    expect((await models(['list'])).stdout).toContain(`ready   ${TINY.name}  whisper  99 languages  0.0 MB  sha256 verified ${sha256}`);
    expect((await models(['download', TINY.name])).stdout).toBe(`${TINY.name} is already installed in ${join(modelsDir, TINY.name)}.\n`);
  });

  it('should install with --trust-unverified and say so', async () => {
    const { code, stdout } = await models(['download', TINY.name, '--mirror', `${host.url}/`, '--trust-unverified']);
    expect(code).toBe(0);
    expect(stdout).toContain(`(archive sha256 ${sha256}, NOT verified: --trust-unverified)`);
  });

  it('should exit 2 with guidance on an unknown model or command', async () => {
    const unknown = await models(['download', 'whisper-huge']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('models: unknown model "whisper-huge"; see `npm run models -- catalog`');
    const usage = await models(['frobnicate']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('npm run models -- download NAME [--sha256 HEX | --trust-unverified]');
  });
});
