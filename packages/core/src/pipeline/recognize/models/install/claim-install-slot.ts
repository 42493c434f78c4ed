import { mkdir, open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { isPidRunning } from '../../../../platform/work/process-identity.ts';

/**
 * Claims `MODELS_DIR/.downloads/<name>.pid` (exclusive create, holding this process id) so that two
 * processes started together (`npm start` and `npm run worker`) never download the same archive
 * into the same file. A claim whose process no longer runs is taken over.
 * @returns a release function, or null when another running process holds the claim.
 * @throws the file system's errors other than "exists".
 */
export async function claimInstallSlot(modelsDir: string, name: string): Promise<(() => Promise<void>) | null> {
  const file = path.join(path.resolve(modelsDir), '.downloads', `${name}.pid`);
  await mkdir(path.dirname(file), { recursive: true });
  for (let tries = 0; tries < 2; tries++) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(await readFile(file, 'utf8').catch(() => ''));
      if (Number.isInteger(pid) && pid > 0 && isPidRunning(pid)) return null;
      await rm(file, { force: true });
    }
  }
  return null;
}

