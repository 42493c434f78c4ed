import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  createPrediction, ensureOwnerApiKey, getBotUserSettings, isTerminalStatus, telegramOwner,
  type BotUserSettings, type PostProcessType, type PredictionRow, type Transcript,
} from '@transcribe/core';
import type { BotDeps } from './bot-context.ts';
import { sendChatText } from './chat-text.ts';
import { deliverResult } from './deliver-result.ts';
import { describeProgress } from './describe-progress.ts';
import { downloadTelegramFile } from './download-telegram-file.ts';
import type { IncomingMedia } from './find-media.ts';
import { isEmptyTranscript, renderChatTranscript } from './render-chat-transcript.ts';
import {
  NO_SPEECH_REPLY, replyForError, replyForFailedPrediction, STILL_RUNNING_REPLY, STOPPED_REPLY,
} from './reply-for-error.ts';
import { resultKeyboard } from './result-buttons.ts';
import { openStatusMessage, type StatusMessage } from './status-message.ts';
import { watchPrediction } from './watch-prediction.ts';

/** Label of the key a person's chat work is recorded under (owner `telegram:<id>`). */
export const BOT_KEY_LABEL = 'telegram bot';

export interface ChatJob {
  chatId: number;
  userId: number;
  /** The message holding the recording; the bot's messages answer it. */
  messageId: number;
  media: IncomingMedia;
}

/** One transcription in progress. */
interface Run {
  deps: BotDeps;
  job: ChatJob;
  settings: BotUserSettings;
  status: StatusMessage;
  signal: AbortSignal;
}

/**
 * Transcribes one recording sent in chat: one status message edited as stages finish,
 * the file fetched from Telegram, a prediction in cache namespace `bot` (spec 2.6.6) under the
 * person's key, then the transcript in the chosen form with post-processing buttons, then the
 * person's default post-processing results. Every failure ends as a plain-words status text.
 */
export async function transcribeMedia(deps: BotDeps, job: ChatJob, signal: AbortSignal): Promise<void> {
  const first = describeProgress({ downloadedBytes: null, prediction: null });
  const status = await openStatusMessage(deps.api, job.chatId, job.messageId, first);
  try {
    const settings = await getBotUserSettings(deps.service.database.db, String(job.userId));
    const run: Run = { deps, job, settings, status, signal };
    const { row, bytes } = await runPrediction(run);
    if (!isTerminalStatus(row.status)) return await status.update(STILL_RUNNING_REPLY, true);
    if (row.status !== 'succeeded') return await status.update(replyForFailedPrediction(row, deps.settings), true);
    const transcript = row.transcript as Transcript;
    if (isEmptyTranscript(transcript)) return await status.update(NO_SPEECH_REPLY, true);
    await status.update(`${describeProgress({ downloadedBytes: bytes, prediction: row })}\n✅ Done: the transcript follows.`, true);
    const keyboard = deps.postProcess ? resultKeyboard(row.id) : undefined;
    const text = renderChatTranscript(transcript, settings.outputFormat, baseName(job.media.fileName));
    const transcriptId = await sendChatText(deps.api, job.chatId, text, { replyTo: job.messageId, keyboard });
    await deliverDefaultResults(run, row, transcriptId);
  } catch (error) {
    await status.update(signal.aborted ? STOPPED_REPLY : replyForError(error, deps.settings), true);
  }
}

/** Downloads the file, creates the prediction and follows it to its end (or the wait limit). */
async function runPrediction(run: Run): Promise<{ row: PredictionRow; bytes: number }> {
  const { deps, job, status, signal } = run;
  const apiKeyId = await ensureOwnerApiKey(deps.service.database.db, telegramOwner(job.userId), BOT_KEY_LABEL);
  const dir = join(deps.service.config.dataDir, 'uploads');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `bot-${randomUUID()}`);
  let created: PredictionRow;
  let bytes = 0;
  try {
    const download = { fileId: job.media.fileId, declaredBytes: job.media.fileSize, destPath: path, signal };
    bytes = await downloadTelegramFile(deps.api, deps.settings, download);
    await status.update(describeProgress({ downloadedBytes: bytes, prediction: null }));
    created = await createPrediction(deps.service, {
      apiKeyId,
      namespace: 'bot',
      rawInput: predictionInput(run.settings),
      upload: { path, bytes, name: job.media.fileName },
    });
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  const row = await watchPrediction(deps.service.database.db, created.id, apiKeyId, {
    pollMs: deps.settings.progressPollMs,
    timeoutMs: deps.settings.transcriptionTimeoutMs,
    signal,
    onChange: (current) => status.update(describeProgress({ downloadedBytes: bytes, prediction: current })),
  });
  return { row, bytes };
}

/**
 * The creation input (spec 2.2) of a chat transcription with the person's settings. Default
 * post-processing types are not part of it: they run after the transcript is shown, so a failing
 * language model never costs the person the transcript (spec 3 would fail the whole prediction).
 */
export function predictionInput(settings: BotUserSettings): Record<string, unknown> {
  const input: Record<string, unknown> = { output_format: 'json' };
  if (settings.language !== null) input.language = settings.language;
  if (settings.speakers !== null) input.speakers = settings.speakers;
  return input;
}

/** The person's default post-processing types (settings), each shown as it is ready. */
async function deliverDefaultResults({ deps, job, settings, signal }: Run, row: PredictionRow, replyTo: number): Promise<void> {
  if (!deps.postProcess) return;
  const transcript = row.transcript as Transcript;
  await Promise.all(
    settings.postProcess.map((type) =>
      deliverResult(deps, { chatId: job.chatId, replyTo, transcript, type: type as PostProcessType, targetLanguage: null }, signal),
    ),
  );
}

/** `my talk.mp3` → `my_talk`; used for the names of transcript files. */
function baseName(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return (dot > 0 ? fileName.slice(0, dot) : fileName).replace(/\s+/g, '_') || 'transcript';
}
