import { execFile } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../platform/errors/app-error.ts';
import { installModel } from './install-model.ts';
import { UNPACK_LIMITS } from './install/check-unpacked-tree.ts';
import { extractTarBz2 } from './install/extract-tar-bz2.ts';
import { findCatalogModel } from './model-catalog.ts';
import { packTarBz2, writeFixtureModel } from './install/serve-release-files.test-helper.ts';

const TINY = findCatalogModel('sherpa-onnx-whisper-tiny')!;
const run = promisify(execFile);

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** Every path under `root` with its kind and content (files) or target (links): to see that nothing changed. */
async function snapshot(root: string): Promise<Record<string, string>> {
  const seen: Record<string, string> = {};
  const walk = async (directory: string) => {
    for (const entry of (await readdir(directory)).sort()) {
      const file = path.join(directory, entry);
      const info = await lstat(file);
      const key = path.relative(root, file);
      if (info.isSymbolicLink()) seen[key] = `link ${await readlink(file)}`;
      else if (info.isDirectory()) {
        seen[key] = 'folder';
        await walk(file);
      } else seen[key] = `file ${(await readFile(file)).toString('base64').slice(0, 64)} ${info.size}`;
    }
  };
  await walk(root);
  return seen;
}

/**
 * Archives and folders that try to reach outside MODELS_DIR or to fill the disk, built with
 * Debian's tar as an attacker (or a damaged mirror) would: each is refused with a clear message
 * before anything is activated, and nothing is written outside MODELS_DIR.
 */
describe('installModel refuses hostile archives and folders', () => {
  let work: string;
  let modelsDir: string;
  let outside: string;

  beforeEach(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'install-hostile-'));
    modelsDir = path.join(work, 'models');
    outside = path.join(work, 'outside');
    // A complete model outside MODELS_DIR: what a link would make the installer activate.
    await writeFixtureModel(outside, TINY);
    await writeFile(path.join(outside, 'secret.txt'), 'not for the service\n');
  });
  afterEach(async () => {
    await rm(work, { recursive: true, force: true });
  });

  const install = (file: string, extra: Partial<Parameters<typeof installModel>[0]> = {}) =>
    installModel({ modelsDir, model: TINY, source: { kind: 'archive', file }, force: true, selfTestThreads: 1, ...extra });

  const expectNothingInstalled = async () => {
    expect((await readdir(modelsDir)).filter((entry) => !entry.startsWith('.'))).toEqual([]);
    expect((await readdir(modelsDir)).filter((entry) => entry.startsWith('.install-'))).toEqual([]);
  };

  it('should refuse an archive whose top folder is a link to a folder outside, writing nothing there', async () => {
    const before = await snapshot(outside);
    const source = path.join(work, 'src');
    await mkdir(source);
    await symlink(path.join(outside, TINY.name), path.join(source, TINY.name));
    const archive = path.join(work, `${TINY.name}.tar.bz2`);
    await run('tar', ['-cjf', archive, '-C', source, TINY.name]);
    const error = await rejection(install(archive));
    expect(error.code).toBe('engine_unavailable');
    expect(error.message).toBe(
      `file://${archive} is refused: its top folder ${TINY.name} is a symbolic link (to ${path.join(outside, TINY.name)}), not a folder; ` +
        'a model must be unpacked files, never a link out of MODELS_DIR; nothing was installed',
    );
    expect(await snapshot(outside)).toEqual(before); // no .install.json written there
    await expectNothingInstalled();
  });

  it('should refuse an archive whose model file links to a file outside, absolute or by ..', async () => {
    const before = await snapshot(outside);
    for (const [name, target] of [
      ['absolute', path.join(outside, 'secret.txt')],
      ['relative', `../${TINY.name}-elsewhere.txt`],
    ] as const) {
      const source = path.join(work, `src-${name}`);
      await writeFixtureModel(source, TINY);
      await writeFile(path.join(source, `${TINY.name}-elsewhere.txt`), 'beside the model folder\n');
      await rm(path.join(source, TINY.name, TINY.files.tokens!));
      await symlink(target, path.join(source, TINY.name, TINY.files.tokens!));
      const archive = path.join(work, name, `${TINY.name}.tar.bz2`);
      await mkdir(path.dirname(archive));
      await run('tar', ['-cjf', archive, '-C', source, TINY.name, `${TINY.name}-elsewhere.txt`]);
      const error = await rejection(install(archive));
      expect(error.message).toBe(
        `file://${archive} is refused: ${TINY.name}/${TINY.files.tokens} is a symbolic link to ${target}, outside the model's folder ${TINY.name}; ` +
          "links may only point inside the model's own folder; nothing was installed",
      );
      await expectNothingInstalled();
    }
    expect(await snapshot(outside)).toEqual(before);
  });

  it('should accept a link that stays inside the model folder', async () => {
    const source = path.join(work, 'src');
    await writeFixtureModel(source, TINY);
    await writeFile(path.join(source, TINY.name, 'README.md'), 'about the model\n');
    await symlink('README.md', path.join(source, TINY.name, 'README.txt'));
    const archive = path.join(work, `${TINY.name}.tar.bz2`);
    await packTarBz2(source, TINY.name, archive);
    expect((await install(archive)).status).toBe('installed');
    expect(await readlink(path.join(modelsDir, TINY.name, 'README.txt'))).toBe('README.md');
  });

  it('should stop an archive bomb: too many bytes, or too many entries', async () => {
    // 64 MiB of zeros: bzip2 packs them into a few hundred bytes (the rest is the fixture model).
    const bomb = path.join(work, 'bomb');
    await writeFixtureModel(bomb, TINY);
    await writeFile(path.join(bomb, TINY.name, 'zeros.bin'), Buffer.alloc(64 * 1024 * 1024));
    const bytesArchive = path.join(work, 'bytes', `${TINY.name}.tar.bz2`);
    await mkdir(path.dirname(bytesArchive));
    await packTarBz2(bomb, TINY.name, bytesArchive);
    expect((await lstat(bytesArchive)).size).toBeLessThan(1_000_000); // 64 MiB in less than 1 MB
    const limits = { maxBytes: 16 * 1024 * 1024, maxEntries: 100 };
    const big = await rejection(install(bytesArchive, { unpackLimits: limits }));
    expect(big.message).toBe(
      `file://${bytesArchive} is refused: it unpacks to more than ${16 * 1024 * 1024} bytes, over the limit of ${16 * 1024 * 1024} bytes for one model ` +
        '(no model of the catalog comes near it: this is an archive bomb or not a model); nothing was installed',
    );
    await expectNothingInstalled();
    // Stopped while unpacking, not after: tar is killed once its stream passes the limit.
    const into = path.join(work, 'unpacked');
    await expect(extractTarBz2(bytesArchive, into, 'the bomb', { timeoutMs: 600_000, limits })).rejects.toThrow(/over the limit of 16777216 bytes/);
    const zeros = await lstat(path.join(into, TINY.name, 'zeros.bin')).then((info) => info.size, () => 0);
    expect(zeros).toBeLessThan(limits.maxBytes + 4 * 1024 * 1024);

    const many = path.join(work, 'many');
    await writeFixtureModel(many, TINY);
    await mkdir(path.join(many, TINY.name, 'test_wavs'));
    for (let i = 0; i < 150; i++) await writeFile(path.join(many, TINY.name, 'test_wavs', `${i}.txt`), `${i}\n`);
    const entriesArchive = path.join(work, 'entries', `${TINY.name}.tar.bz2`);
    await mkdir(path.dirname(entriesArchive));
    await packTarBz2(many, TINY.name, entriesArchive);
    const crowded = await rejection(install(entriesArchive, { unpackLimits: limits }));
    expect(crowded.message).toMatch(/ is refused: it unpacks to more than 100 entries, over the limit of 100 entries for one model /);
    await expectNothingInstalled();
    // The documented defaults take both archives.
    expect(UNPACK_LIMITS).toEqual({ maxBytes: 8 * 1024 ** 3, maxEntries: 10_000 });
    expect((await install(entriesArchive)).status).toBe('installed');
  });

  it('should keep relative links of a folder relative, make absolute ones inside it relative, and refuse links that leave it', async () => {
    const source = path.join(work, 'folder');
    const folder = await writeFixtureModel(source, TINY);
    await writeFile(path.join(folder, 'README.md'), 'about the model\n');
    await symlink('README.md', path.join(folder, 'README.txt'));
    await symlink(path.join(folder, 'README.md'), path.join(folder, 'README'));
    const result = await installModel({ modelsDir, model: TINY, source: { kind: 'folder', directory: folder }, force: true, selfTestThreads: 1 });
    expect(result.status).toBe('installed');
    const installed = path.join(modelsDir, TINY.name);
    expect(await readlink(path.join(installed, 'README.txt'))).toBe('README.md');
    expect(await readlink(path.join(installed, 'README'))).toBe('README.md');
    // The copy no longer depends on the source folder.
    await rm(source, { recursive: true });
    expect(await readFile(path.join(installed, 'README'), 'utf8')).toBe('about the model\n');

    const leaving = await writeFixtureModel(path.join(work, 'leaving'), TINY);
    await symlink(path.join(outside, 'secret.txt'), path.join(leaving, 'notes.txt'));
    const error = await rejection(installModel({ modelsDir, model: TINY, source: { kind: 'folder', directory: leaving }, force: true }));
    expect(error.message).toBe(
      `file://${leaving} is refused: notes.txt is a symbolic link to ${path.join(outside, 'secret.txt')}, outside the model's folder ${TINY.name}; ` +
        "links may only point inside the model's own folder; nothing was installed",
    );
  });

  it('should refuse an expected SHA-256 that is not 64 hex digits before doing anything', async () => {
    for (const bad of ['abc', 'g'.repeat(64), `${'a'.repeat(64)} `, 'a'.repeat(65)]) {
      const error = await rejection(install(path.join(work, 'none.tar.bz2'), { expectedSha256: bad }));
      expect(error.code).toBe('invalid_input');
      expect(error.message).toBe(`--sha256 must be the archive's SHA-256 as 64 hex digits (as \`sha256sum\` prints it), not "${bad}"`);
    }
    await expect(readdir(modelsDir)).rejects.toThrow(); // MODELS_DIR was not even created
  });
});
