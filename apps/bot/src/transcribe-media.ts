import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { InlineKeyboardMarkup } from 'grammy/types';
import {
  cancelPrediction,
  countPredictionsAhead,
  createPrediction,
  ensureOwnerApiKey,
  getBotUserSettings,
  isTerminalStatus,
  listVoices,
  markBotDelivered,
  recordBotDelivery,
  telegramOwner,
  type BotUserSettings,
  type NewBotDelivery,
  type PostProcessType,
  type PredictionRow,
  getSucceededTranscript,
  type ServiceContext,
} from '@transcribe/core';
import type { BotDeps } from './bot-context.ts';
import { textsFor, type Translate } from './bot-i18n.ts';
import { sendChatText } from './chat-text.ts';
import { deliverResult } from './deliver-result.ts';
import { describeProgress } from './describe-progress.ts';
import { formatDuration } from './describe-recording.ts';
import { downloadTelegramFile } from './download-telegram-file.ts';
import type { IncomingMedia } from './find-media.ts';
import { isEmptyTranscript, renderChatTranscript } from './render-chat-transcript.ts';
import { replyForError, replyForFailedPrediction } from './reply-for-error.ts';
import { resultKeyboard, severalSpeakers } from './result-buttons.ts';
import { openStatusMessage, type StatusMessage } from './status-message.ts';
import { watchPrediction, type QueueWait } from './watch-prediction.ts';

/** Label of the key a person's chat work is recorded under (owner `telegram:<id>`). */
export const BOT_KEY_LABEL = 'telegram bot';

export interface ChatJob {
  chatId: number;
  /** Forum topic of the recording in a supergroup, or null. */
  threadId?: number | null;
  /** Who asked (in a group: who mentioned the bot); the prediction is made and charged under them. */
  userId: number;
  /** The message holding the recording; the bot's messages answer it. */
  messageId: number;
  media: IncomingMedia;
  /** Speaker count for this recording only ("Re-run with N speakers"); the saved settings stay as they are. */
  speakers?: number;
  /** When the recording was sent (the message's date); default now. */
  sentAt?: Date;
}

/** One transcription being followed to its result. */
interface Run {
  deps: BotDeps;
  delivery: NewBotDelivery;
  settings: BotUserSettings;
  status: StatusMessage;
  signal: AbortSignal;
  /** The person's texts. */
  t: Translate;
}

/** Callback data of the ✖ Cancel button under a status message: `cancel:<prediction id>`. */
export const CANCEL_BUTTON_PREFIX = 'cancel:';

/** The ✖ Cancel button shown under the status message while the prediction waits or runs. */
export function cancelKeyboard(predictionId: string, t: Translate): InlineKeyboardMarkup {
  return { inline_keyboard: [[{ text: t('button-cancel'), callback_data: `${CANCEL_BUTTON_PREFIX}${predictionId}` }]] };
}

/** Callback data of the ✖ Cancel button while the file is still fetched (before a prediction exists). */
export const CANCEL_FETCH_BUTTON = 'cancel-fetch';

/**
 * Transcribes one recording sent in chat: one status message edited as stages finish, the file
 * fetched from Telegram, then at once a prediction in cache namespace `bot` (spec 2.6.6) under the
 * person's key — a durable pg-boss job in the fair queue, where the person's key gets its share of
 * the recognition time (core resources/queue/) — with where to answer stored beside it (bot_deliveries), then followed to its
 * result (followDelivery). Every failure before the prediction exists ends as a plain-words status text.
 */
export async function transcribeMedia(deps: BotDeps, job: ChatJob, signal: AbortSignal): Promise<void> {
  const t = textsFor(deps, { id: job.userId });
  const first = describeProgress({ downloadedBytes: null, prediction: null }, t);
  const fetchKeyboard = { inline_keyboard: [[{ text: t('button-cancel'), callback_data: CANCEL_FETCH_BUTTON }]] };
  const status = await openStatusMessage(
    deps.api,
    job.chatId,
    { replyTo: job.messageId, threadId: job.threadId, keyboard: fetchKeyboard },
    first,
  );
  const recording = { fileName: job.media.fileName, durationSeconds: job.media.durationSeconds ?? null, sentAt: job.sentAt ?? new Date() };
  const download = deps.downloads.start(job.userId, recording, signal, `${job.chatId}:${status.messageId}`);
  let delivery: NewBotDelivery;
  try {
    delivery = await queueRecording(deps, job, status, download.signal, t);
  } catch (error) {
    const text = download.canceled() ? t('canceled-reply') : signal.aborted ? t('error-stopped') : replyForError(error, deps.settings, t);
    return void (await status.update(text, true));
  } finally {
    download.done();
  }
  // Canceled in the moment between the download's end and the prediction's creation: cancel that.
  if (download.canceled()) await cancelPrediction(deps.service, delivery.predictionId, delivery.apiKeyId);
  await followDelivery(deps, delivery, status, signal);
}

/**
 * Follows a queued recording until its prediction ends, then shows the result: the transcript in the
 * person's chosen form with post-processing buttons and their default post-processing results, or
 * the failure or cancellation in plain words (in the status message). Once the transcript is in the
 * chat the status message has done its work: in a private chat it shrinks to one line (`✅
 * Transcribed: 0:11 of audio.`), in a group it is deleted and a long transcript's preview goes into
 * the file's caption, so each recording leaves one message there. The delivery is marked shown before the result goes
 * out, so two runs of the bot (a restart racing an old process) never answer twice. When the bot
 * stops meanwhile, nothing is said: the delivery stays pending and the next start resumes it.
 */
export async function followDelivery(deps: BotDeps, delivery: NewBotDelivery, status: StatusMessage, signal: AbortSignal): Promise<void> {
  // The person's language: their /language choice, else the Telegram language last seen from them.
  const t = textsFor(deps, { id: delivery.userId });
  try {
    const settings = await getBotUserSettings(deps.service.database.db, String(delivery.userId));
    const run: Run = { deps, delivery, settings, status, signal, t };
    const row = await watchQueued(run);
    if (!isTerminalStatus(row.status)) return await finish(run, t('error-still-running'));
    if (row.status === 'canceled') return await finish(run, t('canceled-reply'));
    if (row.status !== 'succeeded') return await finish(run, replyForFailedPrediction(row, deps.settings, t));
    const transcript = getSucceededTranscript(row);
    if (isEmptyTranscript(transcript)) return await finish(run, t('error-no-speech'));
    if (!(await markBotDelivered(deps.service.database.db, row.id))) return;
    const group = delivery.chatId !== delivery.userId; // a private chat's id is the person's id
    const keyboard = resultKeyboard(row.id, { postProcess: deps.postProcess !== null, nameSpeakers: severalSpeakers(transcript), t });
    const text = renderChatTranscript(transcript, settings.outputFormat, baseName(delivery.fileName), t);
    const transcriptId = await sendChatText(deps.api, delivery.chatId, text, {
      replyTo: delivery.messageId,
      keyboard,
      previewInCaption: group,
    });
    const seconds = row.audioSeconds ?? transcript.source.length;
    await status.close(t('progress-finished', { duration: formatDuration(seconds) }), group);
    await deliverDefaultResults(run, row, transcriptId);
  } catch (error) {
    if (signal.aborted) return;
    if (await markBotDelivered(deps.service.database.db, delivery.predictionId))
      await status.update(replyForError(error, deps.settings, t), true);
  }
}

/** Shows a final status text once (the first run of the bot to claim the delivery shows it). */
async function finish(run: Run, text: string): Promise<void> {
  if (await markBotDelivered(run.deps.service.database.db, run.delivery.predictionId)) await run.status.update(text, true);
}

/**
 * Downloads the file, creates the prediction (in the fair queue on the person's own key, charged the
 * length Telegram states) and stores its delivery.
 */
async function queueRecording(
  deps: BotDeps,
  job: ChatJob,
  status: StatusMessage,
  signal: AbortSignal,
  t: Translate,
): Promise<NewBotDelivery> {
  const { db } = deps.service.database;
  const apiKeyId = await ensureOwnerApiKey(db, telegramOwner(job.userId), BOT_KEY_LABEL);
  const settings = await getBotUserSettings(db, String(job.userId));
  // The voices the person named ("Name speakers"): asked for in every recording unless switched off in /settings.
  const named = settings.knownVoices && (await listVoices(db, telegramOwner(job.userId))).length > 0;
  const dir = join(deps.service.config.dataDir, 'uploads');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `bot-${randomUUID()}`);
  try {
    const download = { fileId: job.media.fileId, declaredBytes: job.media.fileSize, destPath: path, signal };
    const bytes = await downloadTelegramFile(deps.api, deps.settings, download);
    await status.update(describeProgress({ downloadedBytes: bytes, prediction: null }, t));
    signal.throwIfAborted();
    const created = await createPrediction(deps.service, {
      apiKeyId,
      namespace: 'bot',
      rawInput: predictionInput(job.speakers === undefined ? settings : { ...settings, speakers: job.speakers }, named),
      upload: { path, bytes, name: job.media.fileName },
      expectedAudioSeconds: job.media.durationSeconds ?? null, // the fair queue charges the person's key this much until the file is probed
    });
    const delivery: NewBotDelivery = {
      predictionId: created.id,
      chatId: job.chatId,
      threadId: job.threadId ?? null,
      userId: job.userId,
      messageId: job.messageId,
      statusMessageId: status.messageId,
      apiKeyId,
      fileName: job.media.fileName,
    };
    await recordBotDelivery(db, delivery);
    return delivery;
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
}

/** Follows the prediction to its end (or the wait limit), showing its queue place and stages with ✖ Cancel. */
function watchQueued(run: Run): Promise<PredictionRow> {
  const { deps, delivery, status, signal, t } = run;
  const keyboard = cancelKeyboard(delivery.predictionId, t);
  return watchPrediction(deps.service.database.db, delivery.predictionId, delivery.apiKeyId, {
    pollMs: deps.settings.progressPollMs,
    timeoutMs: deps.settings.transcriptionTimeoutMs,
    signal,
    queuePosition: (row) => queueWaitOf(deps.service, row),
    onChange: async (current, wait) => {
      if (isTerminalStatus(current.status)) return;
      const progress = {
        downloadedBytes: inputBytes(current),
        prediction: current,
        ahead: wait?.ahead ?? null,
        waitMinutes: wait?.minutes ?? null,
      };
      await status.update(describeProgress(progress, t), false, keyboard);
    },
  });
}

/**
 * The place of a waiting prediction: from the queue view (position and estimated start, the same as
 * the API's `queue` member) when the service has one, else its position only (countPredictionsAhead).
 * Minutes are rounded up, so "about 1 min" means under a minute.
 */
async function queueWaitOf(service: ServiceContext, row: PredictionRow): Promise<QueueWait | null> {
  if (!service.queueView) {
    const ahead = await countPredictionsAhead(service.database, row.id);
    return ahead === null ? null : { ahead, minutes: null };
  }
  const place = await service.queueView.placeOf(row);
  if (!place || row.startedAt !== null) return null;
  return { ahead: place.position, minutes: Math.max(1, Math.ceil((Date.parse(place.estimated_start_at) - Date.now()) / 60_000)) };
}

/** Bytes of the uploaded recording as the prediction's source records them (prediction-source.ts), or 0. */
function inputBytes(row: PredictionRow): number {
  return row.source.kind === 'upload' && typeof row.source.bytes === 'number' ? row.source.bytes : 0;
}

/**
 * The creation input (spec 2.2) of a chat transcription with the person's settings. Default
 * post-processing types are not part of it: they run after the transcript is shown, so a failing
 * language model never costs the person the transcript (spec 3 would fail the whole prediction).
 * `knownVoices: true` (every voice of the person's registry, docs/speakers.md) when `namedVoices`: the
 * person has named voices and has not switched recognising them off in /settings.
 */
export function predictionInput(settings: BotUserSettings, namedVoices = false): Record<string, unknown> {
  const input: Record<string, unknown> = { output_format: 'json' };
  if (settings.language !== null) input.language = settings.language;
  if (settings.speakers !== null) input.speakers = settings.speakers;
  if (namedVoices && settings.knownVoices) input.known_voices = true;
  return input;
}

/** The person's default post-processing types (settings), each shown as it is ready. */
async function deliverDefaultResults({ deps, delivery, settings, signal }: Run, row: PredictionRow, replyTo: number): Promise<void> {
  if (!deps.postProcess) return;
  const transcript = getSucceededTranscript(row);
  await Promise.all(
    settings.postProcess.map((type) =>
      deliverResult(deps, { chatId: delivery.chatId, replyTo, transcript, type: type as PostProcessType, targetLanguage: null }, signal),
    ),
  );
}

/** `my talk.mp3` → `my_talk`; used for the names of transcript files. */
function baseName(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return (dot > 0 ? fileName.slice(0, dot) : fileName).replace(/\s+/g, '_') || 'transcript';
}
