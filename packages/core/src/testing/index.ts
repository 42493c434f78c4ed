/**
 * `@transcribe/core/testing`: the second public entry of the core package, the test helpers that
 * tests and bench/ outside packages/core use. Local stand-ins for the servers the service talks to
 * (an OpenAI-compatible chat and transcription server, an S3 server, a model release host, link and
 * webhook hosts that close the connection right after the body), fixture
 * models and transcripts, meetings built from single speakers and the diarization error rate, and hostile media. Never imported by production code.
 */

// Pipeline, recognize: a remote transcription server (the openai-asr engine's upstream).
export { fingerprintTranscription, startTranscriptionServer } from '../pipeline/recognize/test-support/start-transcription-server.ts';
export type {
  RecordedTranscriptionRequest,
  TranscriptionReply,
  TranscriptionServer,
} from '../pipeline/recognize/test-support/start-transcription-server.ts';

// Pipeline, recognize/models: a release host for model installs, and fixture models.
export {
  packTarBz2,
  serveReleaseFiles,
  startBlackHole,
  writeFixtureModel,
} from '../pipeline/recognize/models/install/serve-release-files.test-helper.ts';
export type { ReleaseHost } from '../pipeline/recognize/models/install/serve-release-files.test-helper.ts';
export { FIXTURE_MODELS_DIR } from '../pipeline/recognize/test-support/fixture-models-dir.ts';

// Pipeline, diarize: the sherpa-onnx diarization models in their real layout (hand-made graphs),
// meetings built from the shared single-speaker clips, and the evaluation of a diarization: its error
// rate (DER) against reference RTTM / UEM files.
export { DIARIZATION_FIXTURE_MODELS_DIR } from '../pipeline/diarize/test-support/diarization-fixture-models-dir.ts';
export { makeDiarizationReleaseFiles } from '../pipeline/diarize/test-support/make-diarization-release-files.ts';
export type { DiarizationReleaseFiles } from '../pipeline/diarize/test-support/make-diarization-release-files.ts';
export {
  buildRoundRobinMeeting,
  buildShuffledMeeting,
  makeFarField,
  MEETING_VOICES,
  meetingReference,
  seededUniforms,
} from '../pipeline/diarize/test-support/build-meeting.ts';
export type { BuiltMeeting, MeetingOptions } from '../pipeline/diarize/test-support/build-meeting.ts';
export { diarizationErrorRate } from '../pipeline/diarize/scoring/diarization-error-rate.ts';
export { parseRttm, parseUem } from '../pipeline/diarize/scoring/parse-rttm.ts';

// Pipeline, decode: hostile media and a recording ffmpeg stand-in.
export { makeFlacBomb } from '../pipeline/decode/test-support/make-flac-bomb.ts';
export { makeLowRateSilence } from '../pipeline/decode/test-support/make-low-rate-silence.ts';
export { recordFfmpegOutputs } from '../pipeline/decode/test-support/record-ffmpeg-outputs.ts';

// Pipeline, render: fixed transcripts.
export { MULTI_SPEAKER_TRANSCRIPT } from '../pipeline/render/__fixtures__/transcripts.ts';

// Pipeline, post-process: an OpenAI-compatible chat server and a script that answers like a model.
export { startChatServer } from '../pipeline/post-process/test-support/start-chat-server.ts';
export type { ChatServer } from '../pipeline/post-process/test-support/start-chat-server.ts';
export { identifyRequest, replyLikeAModel } from '../pipeline/post-process/test-support/reply-like-a-model.ts';
export { testLlmConfig } from '../pipeline/post-process/test-support/test-llm-config.ts';

// Platform, http: servers that frame their answers as real hosts do (HTTP/1.0, a close right after
// the body, bodies delimited by the end of the connection, bodies cut short).
export { CLOSING_FRAMINGS, startFramedServer, writeFramedAnswer } from '../platform/http/test-support/start-framed-server.ts';
export type { FramedAnswer, FramedRequest, FramedServer, ResponseFraming } from '../platform/http/test-support/start-framed-server.ts';

// Platform, storage: an S3-compatible server.
export { startS3Server } from '../platform/storage/test-support/start-s3-server.ts';
export type { S3Server } from '../platform/storage/test-support/start-s3-server.ts';

// Contract: a validated prediction input with the defaults of spec 2.2, for rows stored directly.
export { predictionInputOf } from '../contract/validation/prediction-input.test-helper.ts';
