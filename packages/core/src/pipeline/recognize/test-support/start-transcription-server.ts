/**
 * A local HTTP server speaking the OpenAI transcription protocol (multipart
 * `POST {base}/audio/transcriptions`, `verbose_json` out) for tests, driven by the real `openai`
 * client. It records every request (fields, the WAV file, arrival and answer times, requests in
 * flight) and answers from a script: a verbose_json body, any status (429 with Retry-After, 500,
 * 400, …), latency, or no answer at all (a timeout). Files over `maxFileBytes` get 413 as OpenAI.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import busboy from 'busboy';
import { writeFramedAnswer } from '../../../platform/http/test-support/start-framed-server.ts';
import type { ResponseFraming } from '../../../platform/http/test-support/start-framed-server.ts';
import { parseWavHeader } from '../../decode/read-wav-layout.ts';

/** One request as received. */
export interface RecordedTranscriptionRequest {
  /** 0-based order of arrival. */
  index: number;
  headers: http.IncomingHttpHeaders;
  /** Form fields by name, in order (`timestamp_granularities[]` repeats). */
  fields: Record<string, string[]>;
  file: { fieldName: string; fileName: string; mimeType: string; bytes: Buffer };
  /** Seconds of audio in the received WAV file. */
  durationSeconds: number;
  /** The file's 16-bit samples. */
  samples: Int16Array;
  /** ms since the server started. */
  receivedAtMs: number;
  answeredAtMs: number | null;
  /** True when the client closed the connection before the answer. */
  aborted: boolean;
}

/** How to answer one request. Default: status 200 with fingerprintTranscription(request). */
export interface TranscriptionReply {
  /** A 200 answer, sent as JSON. */
  body?: unknown;
  /** An HTTP error status, answered with an OpenAI-style error body (or `rawBody`). */
  status?: number;
  headers?: Record<string, string>;
  rawBody?: string;
  delayMs?: number;
  /** Never answer (the client times out). */
  hang?: boolean;
  /** How the answer is framed on the wire (default `keep-alive`: Node's own server): see ResponseFraming. */
  framing?: ResponseFraming;
  /** With a closing `framing`: block the process this long once the answer is sent (FramedAnswer.stallMs). */
  stallMs?: number;
}

export type TranscriptionScript = (request: RecordedTranscriptionRequest) => TranscriptionReply | Promise<TranscriptionReply>;

export interface TranscriptionServer {
  /** Base URL for the client, e.g. `http://127.0.0.1:40123/v1`. */
  baseUrl: string;
  requests: RecordedTranscriptionRequest[];
  /** Most requests being answered at the same time so far. */
  maxInFlight: number;
  setScript: (script: TranscriptionScript) => void;
  /** Clears `requests` and `maxInFlight`. */
  reset: () => void;
  close: () => Promise<void>;
}

/** Word every 0.5 s, segment every 2 s: see fingerprintTranscription. */
const WORD_STEP_SECONDS = 0.5;
const SEGMENT_SECONDS = 2;

/**
 * A verbose_json answer computed from the received audio, so a test can check where each chunk came
 * from: segments tile the file in 2 s steps, a word every 0.5 s whose text is the four samples
 * found there (`w<a>:<b>:<c>:<d>`); `language` echoes the field or says `english`.
 */
export function fingerprintTranscription(request: RecordedTranscriptionRequest): unknown {
  const duration = request.durationSeconds;
  const words = [];
  for (let t = 0; t + 0.25 <= duration; t += WORD_STEP_SECONDS) {
    const at = Math.round(t * 16000);
    words.push({ word: ` w${Array.from(request.samples.subarray(at, at + 4)).join(':')}`, start: t, end: t + 0.25 });
  }
  const segments = [];
  for (let start = 0, id = 0; start < duration; start += SEGMENT_SECONDS, id += 1) {
    const end = Math.min(duration, start + SEGMENT_SECONDS);
    const text = words
      .filter((w) => w.start >= start && w.start < end)
      .map((w) => w.word)
      .join('');
    segments.push({
      id,
      seek: 0,
      start,
      end,
      text,
      tokens: [],
      temperature: 0,
      avg_logprob: -0.25,
      compression_ratio: 1,
      no_speech_prob: 0,
    });
  }
  const language = request.fields.language?.[0] ?? 'english';
  return { task: 'transcribe', language, duration, text: segments.map((s) => s.text).join(''), segments, words };
}

function errorBody(status: number, message = `scripted error ${status}`): string {
  return JSON.stringify({ error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code: null } });
}

/** Reads the multipart form; the file is kept up to `maxFileBytes` + 1 bytes. */
function readForm(request: http.IncomingMessage, maxFileBytes: number) {
  return new Promise<{ fields: Record<string, string[]>; file: RecordedTranscriptionRequest['file'] | null; tooLarge: boolean }>(
    (resolve, reject) => {
      const form = busboy({ headers: request.headers, limits: { fileSize: maxFileBytes + 1 } });
      const fields: Record<string, string[]> = {};
      let file: RecordedTranscriptionRequest['file'] | null = null;
      let tooLarge = false;
      form.on('field', (name, value) => (fields[name] ??= []).push(value));
      form.on('file', (fieldName, stream, info) => {
        const parts: Buffer[] = [];
        stream.on('data', (part: Buffer) => parts.push(part));
        stream.on('limit', () => (tooLarge = true));
        stream.on('end', () => (file = { fieldName, fileName: info.filename ?? '', mimeType: info.mimeType, bytes: Buffer.concat(parts) }));
      });
      form.on('close', () => resolve({ fields, file, tooLarge }));
      form.on('error', reject);
      request.pipe(form);
    },
  );
}

function toRecord(
  index: number,
  request: http.IncomingMessage,
  form: Awaited<ReturnType<typeof readForm>>,
  t0: number,
): RecordedTranscriptionRequest {
  const file = form.file!;
  const layout = parseWavHeader(file.bytes, file.bytes.length);
  const data = file.bytes.subarray(layout.dataOffset, layout.dataOffset + layout.dataBytes);
  const samples = new Int16Array(data.buffer.slice(data.byteOffset, data.byteOffset + (data.length & ~1)));
  return {
    index,
    headers: request.headers,
    fields: form.fields,
    file,
    durationSeconds: layout.durationSeconds,
    samples,
    receivedAtMs: performance.now() - t0,
    answeredAtMs: null,
    aborted: false,
  };
}

/**
 * Starts the server on 127.0.0.1 (a free port). Anything other than POST /v1/audio/transcriptions
 * gets 404; a form without a file gets 400; a script that throws answers 500 with its message.
 */
export async function startTranscriptionServer(
  options: { script?: TranscriptionScript; maxFileBytes?: number } = {},
): Promise<TranscriptionServer> {
  const maxFileBytes = options.maxFileBytes ?? 25 * 1000 * 1000;
  let script: TranscriptionScript = options.script ?? (() => ({}));
  let inFlight = 0;
  const t0 = performance.now();
  const state: TranscriptionServer = {
    baseUrl: '',
    requests: [],
    maxInFlight: 0,
    setScript: (next) => {
      script = next;
    },
    reset: () => {
      state.requests.length = 0;
      state.maxInFlight = 0;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const handle = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const send = (
      status: number,
      body: string,
      headers: Record<string, string> = {},
      framing: ResponseFraming = 'keep-alive',
      stallMs = 0,
    ) => {
      if (response.destroyed) return;
      const all = { 'content-type': 'application/json', ...headers };
      if (framing === 'keep-alive') response.writeHead(status, all).end(body);
      else writeFramedAnswer(request.socket, framing, { status, headers: all, body, stallMs }); // raw bytes: the response object is not used
    };
    if (request.method !== 'POST' || request.url !== '/v1/audio/transcriptions') return send(404, errorBody(404, 'not found'));
    const form = await readForm(request, maxFileBytes);
    if (form.tooLarge) return send(413, errorBody(413, `Maximum content size limit (${maxFileBytes}) exceeded`));
    if (form.file === null) return send(400, errorBody(400, 'file is required'));
    const record = toRecord(state.requests.length, request, form, t0);
    state.requests.push(record);
    response.on('close', () => {
      if (record.answeredAtMs === null) record.aborted = true;
    });
    let reply: TranscriptionReply;
    try {
      reply = await script(record);
    } catch (error) {
      reply = { status: 500, rawBody: errorBody(500, String(error)) };
    }
    if (reply.hang) return;
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (response.destroyed) return;
    const status = reply.status ?? 200;
    record.answeredAtMs = performance.now() - t0;
    send(
      status,
      reply.rawBody ?? (status === 200 ? JSON.stringify(reply.body ?? fingerprintTranscription(record)) : errorBody(status)),
      reply.headers,
      reply.framing,
      reply.stallMs,
    );
  };
  const server = http.createServer((request, response) => {
    state.maxInFlight = Math.max(state.maxInFlight, (inFlight += 1));
    response.on('close', () => (inFlight -= 1));
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(errorBody(500, String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}
