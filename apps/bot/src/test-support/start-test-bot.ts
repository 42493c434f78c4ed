import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { startTestService, type TestDatabaseKind, type TestService } from '../../../api/src/test-support/start-test-service.ts';
import { startBot, type RunningBot, type StartBotOptions } from '../start-bot.ts';
import { startFakeBotApi, type FakeBotApi } from './fake-bot-api.ts';

export { AUDIO_DIR } from '../../../api/src/test-support/shared-paths.ts';

const run = promisify(execFile);

export interface TestBot {
  service: TestService;
  fake: FakeBotApi;
  bot: RunningBot;
  /** Temp folder for converted audio and other test files. */
  workDir: string;
  stop(): Promise<void>;
}

/**
 * The real service (a fresh PostgreSQL database by default, or PGlite) plus the bot in
 * long-polling mode against a fake Bot API server: `client.apiRoot` points at it, so grammY speaks
 * the real protocol to it.
 */
export async function startTestBot(
  options: { kind?: TestDatabaseKind; env?: Record<string, string>; bot?: Partial<StartBotOptions> } = {},
): Promise<TestBot> {
  const service = await startTestService(options.kind ?? 'postgres', options.env ?? {});
  const fake = await startFakeBotApi();
  const workDir = await mkdtemp(join(tmpdir(), 'transcribe-bot-test-'));
  const bot = await startBot(service.service.ctx, {
    token: fake.token,
    apiRoot: fake.apiRoot,
    publicApiBaseUrl: service.replicateBase,
    keyGraceSeconds: 0,
    progressPollMs: 200,
    ...options.bot,
  });
  return {
    service,
    fake,
    bot,
    workDir,
    async stop() {
      await bot.stop();
      await fake.close();
      await service.stop();
      await rm(workDir, { recursive: true, force: true });
    },
  };
}

/** Converts a recording to OGG/Opus as Telegram sends voice messages (48 kHz mono); returns the path. */
export async function toVoiceOgg(source: string, destDir: string): Promise<string> {
  const dest = join(destDir, `${basename(source).replace(/\.\w+$/, '')}.ogg`);
  await run('ffmpeg', [
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    '-i',
    source,
    '-c:a',
    'libopus',
    '-b:a',
    '32k',
    '-ar',
    '48000',
    '-ac',
    '1',
    dest,
  ]);
  return dest;
}
