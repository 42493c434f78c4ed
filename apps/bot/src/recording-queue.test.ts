import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { botDeliveries, predictions } from '@transcribe/core';
import { startBot } from './start-bot.ts';
import { testUser, type FakeBotApi } from './test-support/fake-bot-api.ts';
import { AUDIO_DIR, startTestBot, toVoiceOgg, type TestBot } from './test-support/start-test-bot.ts';
import { createTestDatabase, type TestDatabase } from '../../api/src/test-support/create-test-database.ts';
import { startTestService, type TestService } from '../../api/src/test-support/start-test-service.ts';
import { commandUpdate, pressButton, voiceUpdate } from './test-support/telegram-updates.ts';
import { english } from './test-support/english-texts.ts';

const CLIP = join(AUDIO_DIR, 'librispeech-test-clean/1089-134686-0001.wav');
const LONG = join(AUDIO_DIR, 'long_hifitts6097_concat_16k.wav');

/** The status message the bot sent in answer to message `replyTo`. */
async function statusMessageFor(fake: FakeBotApi, replyTo: number): Promise<number> {
  const call = await fake.waitForCall(
    (c) => c.method === 'sendMessage' && (c.payload.reply_parameters as { message_id?: number } | undefined)?.message_id === replyTo,
  );
  return (call.result as { message_id: number }).message_id;
}

/** Waits until status message `id` has shown a text matching `pattern` (sent or edited); returns it. */
async function statusShows(fake: FakeBotApi, id: number, pattern: RegExp, timeoutMs = 60_000): Promise<string> {
  const call = await fake
    .waitForCall((c) => c.method === 'editMessageText' && c.payload.message_id === id && pattern.test(String(c.payload.text)), timeoutMs)
    .catch((error: unknown) => {
      // Say what the message showed instead: the calls list alone does not tell which status is stuck where.
      const texts = fake.calls.filter((c) => c.payload.message_id === id).map((c) => String(c.payload.text ?? ''));
      throw new Error(`status message ${id} never showed ${pattern}; it showed, in order:\n${texts.join('\n---\n')}\n${String(error)}`);
    });
  return String(call.payload.text);
}

/** The transcript message answering the recording `replyTo` (not the status message). */
function transcriptFor(fake: FakeBotApi, replyTo: number, timeoutMs = 120_000) {
  return fake.waitForCall(
    (c) =>
      (c.method === 'sendMessage' || c.method === 'sendDocument') &&
      (c.payload.reply_parameters as { message_id?: number } | undefined)?.message_id === replyTo &&
      !/Getting the file|Waiting|File received/.test(String(c.payload.text ?? '')),
    timeoutMs,
  );
}

describe('recordings queued without workers (positions, fairness, cancel of queued recordings)', () => {
  let t: TestBot;

  beforeAll(async () => {
    t = await startTestBot({ kind: 'pglite', env: { WORKER_CONCURRENCY: '0' } });
    t.fake.addFile('clip', { path: await toVoiceOgg(CLIP, t.workDir) });
  });

  afterAll(async () => {
    await t?.stop();
  });

  it("should queue every recording, show its place, and put one person's many files after another's one", async () => {
    const many = testUser(6101);
    const sent = [
      voiceUpdate(many, 'clip', undefined, 4),
      voiceUpdate(many, 'clip', undefined, 7),
      voiceUpdate(many, 'clip', undefined, 9),
    ];
    const statuses: number[] = [];
    for (const update of sent) {
      t.fake.pushUpdate(update);
      const id = await statusMessageFor(t.fake, update.message.message_id);
      await statusShows(t.fake, id, /Waiting in the queue/);
      statuses.push(id);
    }
    const one = voiceUpdate(testUser(6102), 'clip');
    t.fake.pushUpdate(one);
    const oneStatus = await statusMessageFor(t.fake, one.message.message_id);
    // Fetch order: the first file of each person, then the rest of the many files.
    expect(await statusShows(t.fake, oneStatus, /Waiting in the queue \(1 ahead\)/)).toMatch(/✅ File received/);
    await statusShows(t.fake, statuses[2]!, /Waiting in the queue \(3 ahead\)/);
    expect(t.fake.messages.get(statuses[0]!)?.text).toMatch(/Waiting in the queue \(next in line\)/);
    expect(t.fake.messages.get(statuses[2]!)?.text).toMatch(/🕒 About \d+ min until it starts/); // the queue's estimate
    expect(JSON.stringify(t.fake.messages.get(oneStatus)?.reply_markup)).toMatch(/✖ Cancel/);
    expect(t.fake.calls.some((c) => /busy/.test(String(c.payload.text ?? '')))).toBe(false);
  });

  it('should cancel a queued recording with its button, only for the person who sent it', async () => {
    const deliveries = await t.service.service.ctx.database.db.select().from(botDeliveries);
    const last = deliveries.filter((d) => d.userId === 6101).at(-1)!;
    pressButton(t.fake, testUser(6102), last.statusMessageId, /Cancel/);
    const refused = await t.fake.waitForCall((c) => c.method === 'answerCallbackQuery' && c.payload.text === english('cannot-cancel'));
    expect(refused.payload.show_alert).toBe(true);
    pressButton(t.fake, testUser(6101), last.statusMessageId, /Cancel/);
    await t.fake.waitForCall((c) => c.method === 'answerCallbackQuery' && c.payload.text === 'Canceled.');
    await statusShows(t.fake, last.statusMessageId, new RegExp(english('canceled-reply').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    expect(t.fake.messages.get(last.statusMessageId)?.reply_markup).toBeUndefined();
  });

  it("should cancel all of a person's queued recordings with /cancel and say which, each by its length and when it was sent", async () => {
    t.fake.pushUpdate(commandUpdate(testUser(6101), '/cancel'));
    const reply = await t.fake.waitForCall(
      (c) => c.method === 'sendMessage' && c.payload.chat_id === 6101 && /^Canceled/.test(String(c.payload.text)),
    );
    const sent = '(?:\\d+ seconds? ago|now|1 minute ago)';
    expect(reply.payload.text).toMatch(
      new RegExp(
        `^Canceled 2 recordings:\\n• Voice message, 0:04, sent ${sent} \\(was waiting in the queue\\)\\n• Voice message, 0:07, sent ${sent} \\(was waiting in the queue\\)$`,
      ),
    );
    t.fake.pushUpdate(commandUpdate(testUser(6101), '/cancel'));
    await t.fake.waitForCall(
      (c) => c.method === 'sendMessage' && c.payload.chat_id === 6101 && c.payload.text === english('nothing-to-cancel'),
    );
    // /usage says where those minutes went.
    t.fake.pushUpdate(commandUpdate(testUser(6101), '/usage'));
    const usage = await t.fake.waitForCall(
      (c) => c.method === 'sendMessage' && c.payload.chat_id === 6101 && /^Your usage so far/.test(String(c.payload.text)),
    );
    expect(String(usage.payload.text)).toMatch(/\nNot charged in that time: 3 canceled recordings\.$/);
  });

  it('should cancel a recording still being fetched from Telegram with /cancel', async () => {
    t.fake.addFile('slow', { path: CLIP, delayMs: 2000 });
    const user = testUser(6103);
    const update = voiceUpdate(user, 'slow');
    t.fake.pushUpdate(update);
    const status = await statusMessageFor(t.fake, update.message.message_id);
    t.fake.pushUpdate(commandUpdate(user, '/cancel'));
    const reply = await t.fake.waitForCall(
      (c) => c.method === 'sendMessage' && c.payload.chat_id === 6103 && /^Canceled/.test(String(c.payload.text)),
    );
    expect(reply.payload.text).toMatch(
      /^Canceled 1 recording:\n• Voice message, 0:04, sent (\d+ seconds? ago|now) \(was being fetched from Telegram\)$/,
    );
    expect(await statusShows(t.fake, status, /Canceled/)).toBe(english('canceled-reply'));
    const deliveries = await t.service.service.ctx.database.db.select().from(botDeliveries);
    expect(deliveries.some((row) => row.userId === 6103)).toBe(false);
  });

  it('should cancel a recording still being fetched with its ✖ Cancel button, only for its sender', async () => {
    t.fake.addFile('slow-2', { path: CLIP, delayMs: 2000 });
    const user = testUser(6104);
    const update = voiceUpdate(user, 'slow-2');
    t.fake.pushUpdate(update);
    const status = await statusMessageFor(t.fake, update.message.message_id);
    pressButton(t.fake, testUser(6105), status, /Cancel/);
    await t.fake.waitForCall((c) => c.method === 'answerCallbackQuery' && c.payload.text === english('cannot-cancel'));
    const mark = t.fake.calls.length;
    pressButton(t.fake, user, status, /Cancel/);
    await t.fake.waitForCall(
      (c) => c.method === 'answerCallbackQuery' && c.payload.text === 'Canceled.' && t.fake.calls.indexOf(c) >= mark,
    );
    expect(await statusShows(t.fake, status, /Canceled/)).toBe(english('canceled-reply'));
    const deliveries = await t.service.service.ctx.database.db.select().from(botDeliveries);
    expect(deliveries.some((row) => row.userId === 6104)).toBe(false);
  });
});

describe('recordings with a worker (burst, running cancel, restart)', () => {
  let t: TestBot;

  beforeAll(async () => {
    t = await startTestBot({ env: { WORKER_CONCURRENCY: '1' } });
    t.fake.addFile('clip', { path: await toVoiceOgg(CLIP, t.workDir) });
    t.fake.addFile('long', { path: await toVoiceOgg(LONG, t.workDir) });
  });

  afterAll(async () => {
    await t?.stop();
  });

  it('should take a burst of six recordings, refuse none, show queue places and transcribe all', async () => {
    const user = testUser(6201);
    const burst = Array.from({ length: 6 }, () => voiceUpdate(user, 'clip'));
    for (const update of burst) t.fake.pushUpdate(update);
    const statuses = await Promise.all(burst.map((update) => statusMessageFor(t.fake, update.message.message_id)));
    await Promise.all(burst.map((update) => transcriptFor(t.fake, update.message.message_id)));
    const shown = t.fake.calls
      .filter((c) => c.method === 'editMessageText' && statuses.includes(Number(c.payload.message_id)))
      .map((c) => String(c.payload.text));
    expect(shown.some((text) => /Waiting in the queue \(\d+ ahead\)/.test(text))).toBe(true);
    expect(t.fake.calls.some((c) => /busy/.test(String(c.payload.text ?? '')))).toBe(false);
    for (const id of statuses) await statusShows(t.fake, id, /^✅ Transcribed: 0:\d\d of audio\.$/);
  }, 180_000);

  it('should refresh a waiting recording’s place when the one ahead of it starts', async () => {
    const running = voiceUpdate(testUser(6210), 'long');
    t.fake.pushUpdate(running);
    const runningStatus = await statusMessageFor(t.fake, running.message.message_id);
    await statusShows(t.fake, runningStatus, /Decoding|Looking for speech|Recognising/);
    // `next` is long too: a short one can be transcribed between two of the last one's status reads,
    // which then never shows `next in line` (a 3.3 s clip did so on a fast machine).
    const next = voiceUpdate(testUser(6211), 'long');
    t.fake.pushUpdate(next);
    const nextStatus = await statusMessageFor(t.fake, next.message.message_id);
    await statusShows(t.fake, nextStatus, /Waiting in the queue \(next in line\)/);
    const last = voiceUpdate(testUser(6212), 'clip');
    t.fake.pushUpdate(last);
    const lastStatus = await statusMessageFor(t.fake, last.message.message_id);
    await statusShows(t.fake, lastStatus, /Waiting in the queue \(1 ahead\)/);
    // The running one ends (canceled); the next starts, and the last one's place follows.
    t.fake.pushUpdate(commandUpdate(testUser(6210), '/cancel'));
    await statusShows(t.fake, nextStatus, /Decoding|Looking for speech|Recognising|Transcribed/);
    await statusShows(t.fake, lastStatus, /Waiting in the queue \(next in line\)/);
    // Nothing left running for the next test.
    t.fake.pushUpdate(commandUpdate(testUser(6211), '/cancel'));
    await statusShows(t.fake, nextStatus, /Canceled/);
    await statusShows(t.fake, lastStatus, /Decoding|Looking for speech|Recognising|Transcribed/);
  }, 180_000);

  it('should cancel a running recording with /cancel', async () => {
    const user = testUser(6202);
    const update = voiceUpdate(user, 'long');
    t.fake.pushUpdate(update);
    const status = await statusMessageFor(t.fake, update.message.message_id);
    await statusShows(t.fake, status, /Decoding|Looking for speech|Recognising/);
    t.fake.pushUpdate(commandUpdate(user, '/cancel'));
    const reply = await t.fake.waitForCall(
      (c) => c.method === 'sendMessage' && c.payload.chat_id === 6202 && /^Canceled/.test(String(c.payload.text)),
    );
    expect(reply.payload.text).toMatch(/^Canceled 1 recording:\n• Voice message, \d+:\d\d, sent .+ \(was being transcribed\)$/);
    await statusShows(t.fake, status, /Canceled/);
  }, 120_000);

  it('should cancel a running recording with its ✖ Cancel button', async () => {
    const user = testUser(6204);
    const update = voiceUpdate(user, 'long');
    t.fake.pushUpdate(update);
    const status = await statusMessageFor(t.fake, update.message.message_id);
    await statusShows(t.fake, status, /Decoding|Looking for speech|Recognising/);
    pressButton(t.fake, user, status, /Cancel/);
    await t.fake.waitForCall((c) => c.method === 'answerCallbackQuery' && c.payload.text === 'Canceled.');
    expect(await statusShows(t.fake, status, /Canceled/)).toBe(english('canceled-reply'));
  }, 120_000);

  it('should deliver every result after a restart in the middle of the queue', async () => {
    const first = t.bot;
    const user = testUser(6203);
    const queued = [voiceUpdate(user, 'clip'), voiceUpdate(user, 'clip'), voiceUpdate(user, 'clip')];
    for (const update of queued) t.fake.pushUpdate(update);
    const { db } = t.service.service.ctx.database;
    for (let i = 0; i < 300; i++) {
      const rows = await db.select().from(botDeliveries);
      if (rows.filter((row) => row.userId === user.id).length === 3) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await first.stop();
    // One finishes while no bot runs (finished but undelivered); the others still wait or run.
    for (let i = 0; i < 600; i++) {
      const rows = await db
        .select({ status: predictions.status })
        .from(predictions)
        .innerJoin(botDeliveries, eq(botDeliveries.predictionId, predictions.id))
        .where(eq(botDeliveries.userId, user.id));
      if (rows.some((row) => row.status === 'succeeded')) {
        expect(rows.some((row) => row.status === 'processing')).toBe(true);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const [old] = await db.select().from(botDeliveries).where(eq(botDeliveries.userId, 6201)).limit(1);
    await db
      .update(botDeliveries)
      .set({ deliveredAt: new Date(Date.now() - 40 * 86_400_000) })
      .where(eq(botDeliveries.predictionId, old!.predictionId));
    const before = t.fake.calls.length;
    t.bot = await startBot(t.service.service.ctx, {
      token: t.fake.token,
      apiRoot: t.fake.apiRoot,
      publicApiBaseUrl: t.service.replicateBase,
      keyGraceSeconds: 0,
      progressPollMs: 200,
    });
    const delivered = await Promise.all(queued.map((update) => transcriptFor(t.fake, update.message.message_id)));
    for (const call of delivered) expect(t.fake.calls.indexOf(call)).toBeGreaterThanOrEqual(before);
    expect(t.fake.calls.some((c) => /restarted/.test(String(c.payload.text ?? '')))).toBe(false);
    expect(await db.select().from(botDeliveries).where(eq(botDeliveries.predictionId, old!.predictionId))).toEqual([]); // shown 40 days ago: pruned
  }, 180_000);
});

describe('a bot in another process than the workers', () => {
  let database: TestDatabase;
  let t: TestBot;
  let workers: TestService;

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await startTestBot({ env: { DATABASE_URL: database.url, WORKER_CONCURRENCY: '0' } });
    // The workers' service shares the database and the data folder (a volume, or S3 in production).
    workers = await startTestService('postgres', { DATABASE_URL: database.url, WORKER_CONCURRENCY: '1', DATA_DIR: t.service.dataDir });
    t.fake.addFile('clip', { path: await toVoiceOgg(CLIP, t.workDir) });
  });

  afterAll(async () => {
    await t?.stop();
    await workers?.stop();
    await database?.drop();
  });

  it('should have its recordings transcribed by the other process and deliver the results', async () => {
    const update = voiceUpdate(testUser(6301), 'clip');
    t.fake.pushUpdate(update);
    const transcript = await transcriptFor(t.fake, update.message.message_id);
    expect(String(transcript.payload.text ?? '').length).toBeGreaterThan(10);
  }, 120_000);
});
