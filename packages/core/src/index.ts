/**
 * `@transcribe/core`: the public entry of the core package, every name the apps (apps/api,
 * apps/bot) and bench/ use, grouped by layer. Anything not listed here is internal: import it by
 * path only from inside packages/core. Test helpers live in the second entry,
 * `@transcribe/core/testing` (src/testing/index.ts).
 */

// What every use-case receives: the collaborators, passed in, never module state.
export type { PredictionMetrics, RequestKind, RequestLimiter, ServiceContext } from './service-context.ts';

// Resources: predictions, what the API creates, lists, waits for and cancels.
export { createPrediction } from './resources/predictions/create-prediction.ts';
export { checkPredictionInput } from './resources/predictions/check-prediction-input.ts';
export { findPrediction } from './resources/predictions/find-prediction.ts';
export { listPredictions } from './resources/predictions/list-predictions.ts';
export { waitForPrediction } from './resources/predictions/wait-for-prediction.ts';
export { countPredictionsAhead } from './resources/queue/count-predictions-ahead.ts';
export { createQueueView } from './resources/queue/create-queue-view.ts';
export { assignFairStartTags } from './resources/queue/assign-fair-start-tags.ts';
export { estimateNewJobWait } from './resources/queue/estimate-new-job-wait.ts';
export { startQueueAnnouncer } from './resources/queue/start-queue-announcer.ts';
export { describeQueueWait, describeDuration } from './resources/queue/describe-queue-wait.ts';
export type { QueueView, KeyQueueItem } from './resources/queue/create-queue-view.ts';
export type { QueuePlace } from './resources/queue/estimate-queue-places.ts';
export { cancelPrediction } from './resources/predictions/cancel-prediction.ts';
export { createPredictionEvents } from './resources/predictions/prediction-events.ts';
export { createPredictionInserter } from './resources/predictions/create-prediction-inserter.ts';
export { SETTLED_STATUSES } from './resources/predictions/append-prediction-log.ts';
export { parseWebhookParams } from './resources/predictions/parse-webhook-params.ts';
export { isTerminalStatus } from './resources/predictions/public-prediction.ts';
export type { PublicPrediction } from './resources/predictions/public-prediction.ts';
export { toPublicPrediction } from './resources/predictions/to-public-prediction.ts';
export { getSucceededTranscript } from './resources/predictions/get-succeeded-transcript.ts';
export { renderLegacyOutput, renderLegacyText } from './resources/predictions/render-legacy-output.ts';
export { checkLegacyTextUrl, isLegacyTextQueryWellFormed, signLegacyTextUrl } from './resources/predictions/sign-legacy-text-url.ts';
export { PREDICTION_CHANGES_CHANNEL } from './resources/predictions/announce-prediction-change.ts';
export { PREDICTION_SEGMENTS_CHANNEL, parseSegmentPayload } from './resources/predictions/announce-early-segment.ts';
export type { AnnouncedSegment, PredictionEvent } from './resources/predictions/prediction-events.ts';
export { GIVEN_UP_ERROR } from './resources/predictions/fail-prediction.ts';
export { createTranscribeJobHandler } from './resources/predictions/run/create-transcribe-job-handler.ts';

// Resources: files, uploaded ahead of a prediction.
export { createFile } from './resources/files/create-file.ts';
export { findFile } from './resources/files/find-file.ts';
export { listFiles } from './resources/files/list-files.ts';
export { deleteFile } from './resources/files/delete-file.ts';
export { toPublicFile } from './resources/files/public-file.ts';
export { uploadTooLargeError, writeUploadFile } from './resources/files/write-upload-file.ts';
export { parseFileUrl, useFileAsUpload } from './resources/files/use-file-as-upload.ts';
// Resources: voices, the account's voice registry (docs/speakers.md).
export { createVoice } from './resources/voices/create-voice.ts';
export { addVoiceSamples } from './resources/voices/add-voice-samples.ts';
export { findVoice } from './resources/voices/find-voice.ts';
export { listVoices } from './resources/voices/list-voices.ts';
export { deleteVoice } from './resources/voices/delete-voice.ts';
export { toPublicVoice } from './resources/voices/public-voice.ts';
export { voiceAccountOf, DEFAULT_MAX_VOICES_PER_ACCOUNT } from './resources/voices/voice-account.ts';
export { discardVoiceSamples } from './resources/voices/measure-voice-samples.ts';
export { measureReferenceVoices } from './resources/voices/measure-reference-voices.ts';
export { measureTranscriptSpeakers, EXCERPT_SECONDS, type MeasuredSpeaker } from './resources/voices/measure-transcript-speakers.ts';
export { enrollSpeakerVoice } from './resources/voices/enroll-speaker-voice.ts';
export { checkVoiceRoom } from './resources/voices/create-voice.ts';
export { rememberPredictionVoice, speakerSpans, RECORDING_GONE, RECORDING_NOT_KEPT } from './resources/voices/remember-prediction-voice.ts';
export { cutVoiceExcerpt, voiceExcerptState, EXCERPT_GONE, NO_EXCERPT_KEPT } from './resources/voices/cut-voice-excerpt.ts';
export type { VoiceExcerptState } from './resources/voices/cut-voice-excerpt.ts';
export { findPredictionRecording } from './resources/voices/find-prediction-recording.ts';
export type { PredictionRecording } from './resources/voices/find-prediction-recording.ts';
export { checkSpeakerName, renamePredictionSpeaker } from './resources/portal/rename-prediction-speaker.ts';
export { renameTranscriptSpeakers } from './contract/output/rename-transcript-speakers.ts';
export { cutSpeechSpans } from './pipeline/voices/cut-speech-spans.ts';
export type { KnownVoice } from './pipeline/voices/identify-speakers.ts';
export type { VoiceSampleSource } from './resources/voices/measure-voice-samples.ts';
export type { PublicVoice } from './resources/voices/public-voice.ts';
export {
  addSamplesSchema,
  createVoiceSchema,
  parseVoiceRequest,
  parseKnownSpeakers,
  MAX_KNOWN_SPEAKERS,
  MAX_SAMPLE_SECONDS,
  MIN_SAMPLE_SECONDS,
  MIN_SAMPLE_SPEECH_SECONDS,
  voiceNameSchema,
} from './contract/validation/known-voices-schema.ts';

// Resources: API keys, their cache and the cross-process announcement of revocations.
export { createApiKey } from './resources/keys/create-api-key.ts';
export { authenticateApiKey } from './resources/keys/authenticate-api-key.ts';
export { hashApiKey } from './resources/keys/generate-api-key.ts';
export { createApiKeyCache } from './resources/keys/api-key-cache.ts';
export type { ApiKeyCache } from './resources/keys/api-key-cache.ts';
export { listApiKeys } from './resources/keys/list-api-keys.ts';
export { revokeApiKey } from './resources/keys/revoke-api-key.ts';
export type { RevokedApiKey } from './resources/keys/revoke-api-key.ts';
export type { ApiKeySummary } from './resources/keys/list-api-keys.ts';
export { MAX_KEY_REISSUE_GRACE_SECONDS, reissueUserApiKey } from './resources/keys/reissue-user-api-key.ts';
export type { ReissuedApiKey } from './resources/keys/reissue-user-api-key.ts';
export { ensureOwnerApiKey } from './resources/keys/ensure-owner-api-key.ts';
export { API_KEY_CHANGES_CHANNEL, publishApiKeyChanges } from './resources/keys/publish-api-key-changes.ts';
export {
  API_KEY_CHANGE_ACKS_CHANNEL,
  API_KEY_WATCHER_APPLICATION_NAME,
  DEFAULT_KEY_CHANGE_CONFIRM_TIMEOUT_MS,
  confirmApiKeyChanges,
} from './resources/keys/confirm-api-key-changes.ts';
export { watchApiKeyChanges } from './resources/keys/watch-api-key-changes.ts';

// Resources: billing and usage.
export { chargePrediction } from './resources/billing/charge-prediction.ts';
export { summarizeUsage } from './resources/billing/summarize-usage.ts';
export type { UsageSummary } from './resources/billing/summarize-usage.ts';

// Resources: the stored-download and transcript cache (spec 2.6).
export { startCacheSweeper } from './resources/cache/start-cache-sweeper.ts';

// Resources: webhooks (signing secret, delivery worker, attempts).
export { getWebhookSecret } from './resources/webhooks/webhook-secret.ts';
export { DEFAULT_WEBHOOK_OPTIONS } from './resources/webhooks/webhook-queue.ts';
export { startWebhookWorker } from './resources/webhooks/start-webhook-worker.ts';
export { listWebhookAttempts } from './resources/webhooks/list-webhook-attempts.ts';
export { enqueueCompletedWebhook } from './resources/webhooks/enqueue-completed-webhook.ts';
export { deliverCompletedWebhook } from './resources/webhooks/deliver-completed-webhook.ts';
export { sweepUndeliveredWebhooks } from './resources/webhooks/sweep-undelivered-webhooks.ts';

// Resources: the account portal (login links, sessions, the owner's keys and predictions).
export { describePortalOwner, portalAccountOwner } from './resources/portal/portal-owner.ts';
export { portalLoginUrl, serviceRootUrl } from './resources/portal/portal-base-url.ts';
export { createLoginLink } from './resources/portal/create-login-link.ts';
export { createPortalLoginLink } from './resources/portal/create-portal-login-link.ts';
export { redeemLoginLink } from './resources/portal/redeem-login-link.ts';
export { PORTAL_SESSION_TTL_SECONDS, startPortalSession } from './resources/portal/start-portal-session.ts';
export { findPortalSession } from './resources/portal/find-portal-session.ts';
export { endPortalSession } from './resources/portal/end-portal-session.ts';
export { listOwnerApiKeys } from './resources/portal/list-owner-api-keys.ts';
export type { OwnerApiKey } from './resources/portal/list-owner-api-keys.ts';
export { findAccountPrediction } from './resources/portal/find-account-prediction.ts';
export { listAccountPredictions } from './resources/portal/list-account-predictions.ts';
export type { AccountPrediction } from './resources/portal/list-account-predictions.ts';
export { summarizeDailyMinutes } from './resources/portal/summarize-daily-minutes.ts';
export type { DailyMinutes } from './resources/portal/summarize-daily-minutes.ts';

// Resources: Telegram bot users (their settings, predictions and usage).
export { telegramOwner } from './resources/bot-users/bot-user-settings.ts';
export type { BotOutputFormat, BotUserSettings } from './resources/bot-users/bot-user-settings.ts';
export { getBotUserSettings } from './resources/bot-users/get-bot-user-settings.ts';
export { saveBotUserSettings } from './resources/bot-users/save-bot-user-settings.ts';
export { saveBotUserLocale } from './resources/bot-users/save-bot-user-locale.ts';
export { saveBotUserProfile } from './resources/bot-users/save-bot-user-profile.ts';
export type { BotUserProfile } from './resources/bot-users/save-bot-user-profile.ts';
export { getBotUserProfile } from './resources/bot-users/get-bot-user-profile.ts';
export { listBotUserLocales } from './resources/bot-users/list-bot-user-locales.ts';
export type { BotUserLocale } from './resources/bot-users/list-bot-user-locales.ts';
export { findOwnedPrediction } from './resources/bot-users/find-owned-prediction.ts';
export { summarizeOwnerUncharged, summarizeOwnerUsage } from './resources/bot-users/summarize-owner-usage.ts';
export type { CountedAudio, NamespaceUsage, UnchargedUsage } from './resources/bot-users/summarize-owner-usage.ts';
export { recordBotDelivery } from './resources/bot-users/record-bot-delivery.ts';
export type { NewBotDelivery } from './resources/bot-users/record-bot-delivery.ts';
export { listPendingBotDeliveries } from './resources/bot-users/list-pending-bot-deliveries.ts';
export type { PendingBotDelivery } from './resources/bot-users/list-pending-bot-deliveries.ts';
export { markBotDelivered } from './resources/bot-users/mark-bot-delivered.ts';
export { pruneBotDeliveries } from './resources/bot-users/prune-bot-deliveries.ts';
export { getGroupTranscribeAll } from './resources/bot-users/get-group-transcribe-all.ts';
export { setGroupTranscribeAll } from './resources/bot-users/set-group-transcribe-all.ts';

// Pipeline, fetch: size-capped writes and data: URIs.
export { formatMebibytes, mediaTooLargeError, writeLimitedFile } from './pipeline/fetch/write-limited-file.ts';
export { fileClosed } from './pipeline/fetch/file-closed.ts';
export { createDataUriDecoder, writeDataUri } from './pipeline/fetch/decode-data-uri.ts';
export type { DataUriDecoder, DecodedDataUri } from './pipeline/fetch/decode-data-uri.ts';
export { fetchMedia } from './pipeline/fetch/fetch-media.ts';

// Pipeline, decode: ffprobe and ffmpeg.
export { probeMedia } from './pipeline/decode/probe-media.ts';
export { decodeToPcm } from './pipeline/decode/decode-to-pcm.ts';
export { decodeChannelsToPcm } from './pipeline/decode/decode-channels-to-pcm.ts';

// Pipeline, VAD: Silero voice-activity detection.
export { assertVadModel, resolveDefaultVadModelPath } from './pipeline/vad/locate-vad-model.ts';
export { detectSpeech, detectSpeechLevels } from './pipeline/vad/detect-speech.ts';
export type { SpeechScores } from './pipeline/vad/detect-speech.ts';
export { createVadWorkerPool, type VadWorkerPool } from './pipeline/vad/create-vad-worker-pool.ts';

// Pipeline, recognize: the engines, one recording at a time, and the word error rate.
export type { RecognitionEngine, RecognitionSession, RecognizedSegment } from './pipeline/recognize/recognition-engine.ts';
export { selectRecognitionEngine } from './pipeline/recognize/select-recognition-engine.ts';
export { createPocketsphinxEngine } from './pipeline/recognize/engines/pocketsphinx/pocketsphinx-engine.ts';
export {
  POCKETSPHINX_CALIBRATION,
  POCKETSPHINX_LOW_LOGPROB_LIMIT,
  pocketsphinxCalibratedConfidence,
  pocketsphinxPosteriorFeature,
} from './pipeline/recognize/engines/pocketsphinx/calibrate-pocketsphinx-posterior.ts';
export { createSherpaOnnxEngine } from './pipeline/recognize/engines/sherpa-onnx/sherpa-onnx-engine.ts';
export { createOpenAiAsrEngine } from './pipeline/recognize/engines/openai-asr/openai-asr-engine.ts';
export { transcribeRecording } from './pipeline/recognize/transcribe-recording.ts';
export {
  assessSegments,
  compressionRatio,
  DEFAULT_FLAG_THRESHOLDS,
  dropFlaggedSegments,
  hasRepetitionLoop,
  noSpeechProbability,
  resolveFlagThresholds,
} from './pipeline/recognize/assess-segments.ts';
export type { FlagThresholds } from './pipeline/recognize/assess-segments.ts';
export { readWavLayout } from './pipeline/decode/read-wav-layout.ts';
export { normalizeForWer, wordErrorRate } from './pipeline/recognize/word-error-rate.ts';
export {
  expectedCalibrationError,
  fitPlattScaling,
  markRightWords,
  plattProbability,
  reliabilityBins,
} from './pipeline/recognize/confidence-calibration.ts';
export type { PlattScaling, ReliabilityBin, ScoredWord } from './pipeline/recognize/confidence-calibration.ts';

// Pipeline, recognize/models: the catalog and `npm run models` (install, list, remove, lock).
export { MODEL_CATALOG, findCatalogModel } from './pipeline/recognize/models/model-catalog.ts';
export type { CatalogModel } from './pipeline/recognize/models/model-catalog.ts';
export { listInstalledModels, modelFixCommand } from './pipeline/recognize/models/list-installed-models.ts';
export type { InstalledModelReport } from './pipeline/recognize/models/list-installed-models.ts';
export { ANOTHER_INSTALL, archiveUrlOf, describeSelfTest, installModel, isSha256Hex } from './pipeline/recognize/models/install-model.ts';
export type { InstallModelOptions, InstallModelResult, ModelSource } from './pipeline/recognize/models/install-model.ts';
export { RECOMMENDED_CPU_MODEL } from './pipeline/recognize/models/install/recommended-model.ts';
export { modelsLockPath, readModelsLock, readModelsLockForListing } from './pipeline/recognize/models/install/models-lock.ts';
export { probeReleaseHost } from './pipeline/recognize/models/install/probe-release-host.ts';
export { removeModel } from './pipeline/recognize/models/install/remove-model.ts';

// Pipeline, diarize: speaker turns (their error rate and reference files: @transcribe/core/testing).
export { diarizeRecording, type DiarizationEngine } from './pipeline/diarize/diarize-recording.ts';
// Pipeline, voices: speaker embeddings and known-voice matching (bench/speakers.ts measures them).
export { identifySpeakers, DEFAULT_THRESHOLDS } from './pipeline/voices/identify-speakers.ts';
export { embedSpeechGroups, findVoiceEmbedder } from './pipeline/voices/embed-speech.ts';
export { measureVoiceStatistics } from './pipeline/voices/embed-speech-builtin.ts';
export { addToEmbeddings, cosineSimilarity } from './pipeline/voices/voice-embedding.ts';
export { speakerSpeechRegions } from './pipeline/voices/speaker-speech-regions.ts';
export { chooseExcerpt, cutSpeechExcerpt } from './pipeline/voices/cut-speech-excerpt.ts';
export { matchVoices } from './pipeline/voices/match-voices.ts';
export { QUIET_SPEECH_ONSET } from './pipeline/diarize/add-quiet-speech.ts';
// Pipeline, diarize/models: the neural diarization and speaker-embedding models `npm run models` installs.
export {
  DIARIZATION_MODEL_CATALOG,
  diarizationModelsOf,
  findDiarizationCatalogModel,
  RECOMMENDED_EMBEDDING_MODEL,
  RECOMMENDED_SEGMENTATION_MODEL,
} from './pipeline/diarize/models/diarization-model-catalog.ts';
export type { DiarizationCatalogModel, DiarizationModelRole } from './pipeline/diarize/models/diarization-model-catalog.ts';
export { findInstalledSpeakerEmbeddingModel } from './pipeline/diarize/models/find-installed-diarization-models.ts';
export { DIARIZATION_INSTALL_COMMAND, locateDiarizationModels } from './pipeline/diarize/locate-diarization-models.ts';
export {
  DIARIZATION_SELF_TEST_FAILED,
  diarizationArchiveUrlOf,
  installDiarizationModels,
} from './pipeline/diarize/models/install-diarization-models.ts';
export type {
  DiarizationInstallRecord,
  DiarizationInstallRequest,
  InstallDiarizationOptions,
  InstallDiarizationResult,
} from './pipeline/diarize/models/install-diarization-models.ts';
export { isDiarizationModelEntry, listInstalledDiarizationModels } from './pipeline/diarize/models/list-installed-diarization-models.ts';
export type { InstalledDiarizationReport } from './pipeline/diarize/models/list-installed-diarization-models.ts';
export { removeDiarizationModel } from './pipeline/diarize/models/remove-diarization-model.ts';
export { describeDiarizationSelfTest } from './pipeline/diarize/models/run-diarization-self-test.ts';
export type { DiarizationSelfTestResult } from './pipeline/diarize/models/run-diarization-self-test.ts';
// Pipeline, diarize: the built-in diarizer's steps, one by one (bench/quality calibrates them).
export { COARSE_HOP_SAMPLES, extractSpeechFeatures } from './pipeline/diarize/extract-speech-features.ts';
export { standardizeFeatures } from './pipeline/diarize/standardize-features.ts';
export type { FrameMatrix } from './pipeline/diarize/standardize-features.ts';
export { speakerPairScores } from './pipeline/diarize/measure-likelihood-gain.ts';
export { componentPosteriors, trainBackgroundModel } from './pipeline/diarize/train-background-model.ts';
export { cutWindows, embedWindows, spreadWindowLabels } from './pipeline/diarize/embed-windows.ts';
export { clusterWindows } from './pipeline/diarize/cluster-windows.ts';
export {
  chooseSpeakerCount,
  loudnessSpread,
  penalisedGain,
  ROOM_C0_SPREAD,
  ROOM_GAIN_THRESHOLD,
  ROOM_SEPARATION_THRESHOLD,
  scoreSpeakerCounts,
  SPEAKER_GAIN_THRESHOLD,
  SPEAKER_SEPARATION_THRESHOLD,
  type SpeakerCountScore,
} from './pipeline/diarize/estimate-speaker-count.ts';
export { mayHoldSecondSpeaker, screenSpeakers, type ScreenVerdict, type SpeakerScreen } from './pipeline/diarize/diarize-builtin.ts';
export { addQuietSpeech } from './pipeline/diarize/add-quiet-speech.ts';
export { framesToTurns } from './pipeline/diarize/frames-to-turns.ts';
export { fillShortPauses } from './pipeline/diarize/fill-short-pauses.ts';

// Pipeline, render: the formats of the transcript model.
export { renderTranscript } from './pipeline/render/render-transcript.ts';
export { parseOutputTransformers } from './pipeline/render/parse-output-transformers.ts';
export { applyOutputTransformers } from './pipeline/render/apply-output-transformers.ts';

// Pipeline, post-process: the LLM post-processing types (spec 2.4).
export { runPostProcessing } from './pipeline/post-process/run-post-processing.ts';
export type { LlmClientConfig } from './pipeline/post-process/llm-client-config.ts';

// Platform: errors.
export { AppError, isAppError } from './platform/errors/app-error.ts';
export type { AppErrorCode } from './platform/errors/app-error.ts';
export { WorkerStoppingError } from './platform/errors/worker-stopping-error.ts';
export type { StopReason } from './platform/errors/worker-stopping-error.ts';

// Platform: structured logging of background events.
export { logEvent } from './platform/logging/log-event.ts';
export type { EventLevel } from './platform/logging/log-event.ts';

// Platform: outbound HTTP (Node's own client with the address checks, the one retry policy and failure classifier).
export { createOutboundAgent } from './platform/http/create-outbound-agent.ts';
export { createOutboundFetch } from './platform/http/create-outbound-fetch.ts';
export type { OutboundFetch } from './platform/http/create-outbound-fetch.ts';
export { HttpStatusError } from './platform/http/classify-http-failure.ts';
export { retryHttpCall } from './platform/http/retry-http-call.ts';

// Platform: the database (PostgreSQL or PGlite), its drizzle tables and announcements across processes.
export { openDatabase } from './platform/db/open-database.ts';
export type { Database, Db } from './platform/db/open-database.ts';
export { findDatabase } from './platform/db/find-database.ts';
export type { FoundDatabase } from './platform/db/find-database.ts';
export { apiKeys, files, predictions, voices } from './platform/db/schema.ts';
export type { ApiKeyRow, PredictionRow, VoiceRow } from './platform/db/schema.ts';
export { mediaCache, transcriptCache, usageLedger } from './platform/db/cache-schema.ts';
export { webhookDeliveries } from './platform/db/webhook-schema.ts';
export { rateLimits } from './platform/db/rate-limit-schema.ts';
export { botDeliveries } from './platform/db/bot-schema.ts';

// Platform: jobs (pg-boss), the transcribe worker and recovery after a crash.
export { TRANSCRIBE_QUEUE, openJobQueue } from './platform/jobs/open-job-queue.ts';
export { startTranscribeWorker } from './platform/jobs/start-transcribe-worker.ts';
export { requeueInterruptedJobs } from './platform/jobs/requeue-interrupted-jobs.ts';
export { failGivenUpPredictions } from './platform/jobs/fail-given-up-predictions.ts';

// Platform: media storage (local folder or S3).
export type { MediaStore } from './platform/storage/media-store.ts';
export { createS3MediaStore } from './platform/storage/s3-media-store.ts';

// Platform: work folders and child processes.
export { prepareWorkRoot } from './platform/work/sweep-work-folders.ts';
export { isPidRunning, readProcess } from './platform/work/process-identity.ts';
export { measureFolderBytes } from './platform/work/measure-folder-bytes.ts';
export { parentDeathSupport, tieChildToParent } from './platform/work/tie-child-to-parent.ts';

// Contract: the input of a prediction (spec 2.2), the transcript model, the legacy interface (spec 9) and the spec tables.
export { OUTPUT_FORMATS } from './contract/validation/prediction-input.ts';
export type { OutputFormat, PredictionInput } from './contract/validation/prediction-input.ts';
export type { Transcript, TranscriptSegment, TranscriptWord, SegmentFlag, VadInterval } from './contract/output/transcript-model.ts';
export { SEGMENT_FLAGS } from './contract/output/transcript-model.ts';
export { parseLegacyInput } from './contract/validation/parse-legacy-input.ts';
export type { LegacyInput, LegacyOutputFormat } from './contract/validation/parse-legacy-input.ts';
export { containsNul } from './contract/validation/contains-nul.ts';
export { buildLegacyInputJsonSchema, buildPredictionInputJsonSchema } from './contract/validation/build-input-json-schema.ts';
export { LANGUAGES, LANGUAGE_LIST_PATH, findLanguage } from './contract/spec/languages.ts';
export type { Language } from './contract/spec/languages.ts';
export { POST_PROCESS_TYPES, POST_PROCESS_TYPE_NAMES, TYPES_NEEDING_TARGET_LANGUAGE } from './contract/spec/post-process-types.ts';
export type { PostProcessType } from './contract/spec/post-process-types.ts';

// Pipeline: live transcription (docs/live.md): audio formats, the streaming VAD, one turn's recognition.
export { createStreamResampler, decodeLiveAudio, LIVE_FORMAT_RATE } from './pipeline/live/decode-live-audio.ts';
export type { LiveAudioFormat, StreamResampler } from './pipeline/live/decode-live-audio.ts';
export { createLiveVad, loadSileroModel } from './pipeline/live/create-live-vad.ts';
export type { LivePieceSettings, LiveVad, LiveVadEvent, LiveVadSettings, SileroModel } from './pipeline/live/create-live-vad.ts';
export { recognizeTurn } from './pipeline/live/recognize-turn.ts';
export type { LiveRecognitionStream, LiveStreamRequest } from './pipeline/recognize/live-recognition-stream.ts';
export { recordLiveSession } from './resources/live/record-live-session.ts';
export type { LiveSessionRecord } from './resources/live/record-live-session.ts';
