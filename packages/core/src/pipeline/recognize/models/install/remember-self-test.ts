import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SelfTestResult } from '../list-installed-models.ts';

/**
 * A failed self-test, remembered so that it is not run again on the same model: at every start
 * without a model the first-start install would otherwise unpack and decode the same archive
 * again (minutes of CPU for a large model) only to fail the same way.
 */
export interface RememberedSelfTest {
  /** SHA-256 of the archive that failed, or null for a folder install. */
  archiveSha256: string | null;
  /** SHA-256 over the model files (hash-model-files.ts), or null when the failure was remembered before unpacking. */
  contentSha256: string | null;
  result: SelfTestResult;
}

/** `MODELS_DIR/.downloads/<name>.self-test.json`. */
export function selfTestMemoryPath(modelsDir: string, name: string): string {
  return path.join(path.resolve(modelsDir), '.downloads', `${name}.self-test.json`);
}

/**
 * The remembered failed self-test of `name` when it was made on these very bytes: the same
 * archive SHA-256 when `found.archiveSha256` is given, else the same model-files SHA-256.
 * @returns null when none is remembered, it is for other bytes, or the file is unreadable.
 */
export async function recallFailedSelfTest(modelsDir: string, name: string, found: { archiveSha256: string | null; contentSha256: string | null }): Promise<RememberedSelfTest | null> {
  let memory: RememberedSelfTest;
  try {
    memory = JSON.parse(await readFile(selfTestMemoryPath(modelsDir, name), 'utf8')) as RememberedSelfTest;
  } catch {
    return null;
  }
  if (typeof memory?.result?.reason !== 'string' || memory.result.passed !== false) return null;
  if (found.archiveSha256 !== null) return memory.archiveSha256 === found.archiveSha256 ? memory : null;
  return found.contentSha256 !== null && memory.contentSha256 === found.contentSha256 ? memory : null;
}

/** Remembers the failed self-test `memory.result` of `name` (temporary file, then rename). */
export async function rememberFailedSelfTest(modelsDir: string, name: string, memory: RememberedSelfTest): Promise<void> {
  const file = selfTestMemoryPath(modelsDir, name);
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${randomUUID()}.tmp`;
  await writeFile(temporary, `${JSON.stringify(memory, null, 2)}\n`);
  await rename(temporary, file);
}

/** Forgets the remembered self-test of `name` (after an install, a removal). */
export async function forgetSelfTest(modelsDir: string, name: string): Promise<void> {
  await rm(selfTestMemoryPath(modelsDir, name), { force: true });
}
