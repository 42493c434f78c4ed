import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable, Transform } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Request, RequestHandler, Response } from 'express';
import { jsonParser, type Token } from 'stream-json/core/parser.js';
import {
  AppError,
  createDataUriDecoder,
  fileClosed,
  mediaTooLargeError,
  type DataUriDecoder,
  type DecodedDataUri,
  type ServiceContext,
} from '@transcribe/core';
import { interruptedUploadError } from './receive-raw-body.ts';

/**
 * Bytes a JSON body may hold besides the one `data:` URI: everything else a create request sends
 * (parameters, `webhook`, a prompt, hotwords) fits in a few KiB, so 1 MiB is generous, and it bounds
 * the memory and time a body of junk (`{"junk":[{},{},…]}`) can cost before it is refused.
 */
export const JSON_OTHER_LIMIT_BYTES = 1024 * 1024;
/** Deepest nesting of arrays and objects accepted in a JSON body (no parameter nests beyond 3). */
export const MAX_JSON_DEPTH = 64;
/** Characters of a streamed data: URI kept at its start to check its form as a whole URI would be checked. */
const SAMPLE_HEAD_CHARS = 2400;
/** Characters of a streamed data: URI kept at its end (audioSchema, contract/validation/audio-schema.ts, looks at the last 1024). */
const SAMPLE_TAIL_CHARS = 1024;
/**
 * Longest stretch of body work before the event loop gets a turn, in ms. Chunks already buffered are
 * handed out by the stream without a pause (libuv reads up to 32 socket reads, 2 MB, per turn), so
 * without this a fast client could hold the loop for the whole buffer.
 */
const MAX_TURN_MS = 10;
/**
 * What a value costs against JSON_OTHER_LIMIT_BYTES besides its characters, in bytes: roughly its
 * memory (a slot in its container; an object or array costs more), so a body of tiny values
 * (`[{},{},…]`: 350,000 objects per MiB of text) is refused long before it costs GC pauses.
 */
const VALUE_COST = 8;
const CONTAINER_COST = 32;
/** Characters tokenized at a time (a 64 KiB chunk of tiny tokens is 20,000 objects: a few ms each piece). */
const FEED_CHARS = 16 * 1024;
/** The `none` of stream-chain (a registered symbol): handed to the tokenizer, it ends the input. */
const END_OF_INPUT = Symbol.for('object-stream.none');

/** What reading a JSON body learnt about its streamed data: URI, kept with the request's response. */
interface StreamedDataUri {
  /** The decoded file of the URI left in place, or null. */
  decoded: DecodedDataUri | null;
  /** The URI held a NUL character. */
  heldNul: boolean;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** Set by receiveJsonBody when it streamed a data: URI (decodedDataUriOf, dataUriHeldNul read it). */
      streamedDataUri?: StreamedDataUri;
    }
  }
}

/**
 * The `data:` URI of the streamed parameter, decoded to a file while the body arrived; null when
 * the body held none (or its value was replaced by a later duplicate key). Read from the request's
 * `res.locals`, where receiveJsonBody left it: per-request state lives and dies with the request.
 */
export function decodedDataUriOf(req: Request): DecodedDataUri | null {
  return req.res?.locals.streamedDataUri?.decoded ?? null;
}

/** True when the streamed data: URI held a NUL character (refuseNulCharacters answers 422). */
export function dataUriHeldNul(req: Request): boolean {
  return req.res?.locals.streamedDataUri?.heldNul === true;
}

/** A body-parser style error, mapped by handleError (map-error.ts) to the answers express.json gave. */
function bodyError(status: number, type: string, message: string): Error {
  return Object.assign(new Error(message), { status, type, expose: true });
}

/**
 * Reads an `application/json` body as it arrives, in place of `express.json({ strict: false })`,
 * into `req.body` (any JSON value; an empty body gives `{}`, a request without a body or of another
 * type is left alone), with bounded memory and no long pause of the event loop:
 * - the string at `input.<dataUriParam>` that starts with `data:` (a recording sent by the Replicate
 *   clients, up to 300 MiB decoded) is never held: it is decoded chunk by chunk into a file under
 *   DATA_DIR/uploads (decodedDataUriOf gives it to the create route; `req.body` then holds a short
 *   sample of the URI, its header and both ends, which checks and echoes exactly as the whole would);
 * - everything else together is bounded by {@link JSON_OTHER_LIMIT_BYTES} and
 *   {@link MAX_JSON_DEPTH}, checked chunk by chunk, so a larger body is answered at once;
 * - a declared Content-Length over `jsonBodyLimitBytes` is refused before any byte is read.
 * The decoded file is removed when the answer ends unless createPrediction moved it into place,
 * and at once when the body fails or the client goes away.
 * @param options.limitBytes the whole body limit in bytes (jsonBodyLimitBytes: the 300 MiB recording as base64 plus 1 MiB).
 * @param options.dataUriParam the member of `input` that may hold a large data: URI (`audio`; `url` for the earlier variant, spec 9).
 * @throws (through `next`) AppError `payload_too_large` (413) past the 1 MiB of other members,
 *   `media_too_large` (413) past MAX_MEDIA_BYTES decoded, `invalid_input` (422) for nesting deeper than
 *   64 or an interrupted body; body-parser style errors for invalid JSON (400), a body over the whole
 *   limit (413), an unsupported charset or content encoding (415).
 */
export function receiveJsonBody(ctx: ServiceContext, options: { limitBytes: number; dataUriParam: string }): RequestHandler {
  return async (req, res, next) => {
    await readJsonBody(ctx, req, res, options);
    next();
  };
}

async function readJsonBody(
  ctx: ServiceContext,
  req: Request,
  res: Response,
  options: { limitBytes: number; dataUriParam: string },
): Promise<void> {
  if (req.body !== undefined || (req.complete && !req.readable)) return;
  const hasBody = req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(req.headers['content-length']));
  if (!hasBody || !req.is('application/json')) return;
  const charset = (/;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.get('content-type') ?? '')?.[1] ?? 'utf-8').toLowerCase();
  let text: InstanceType<typeof TextDecoder>;
  try {
    if (!charset.startsWith('utf-')) throw new RangeError(charset);
    text = new TextDecoder(charset);
  } catch {
    throw bodyError(415, 'charset.unsupported', `unsupported charset "${charset.toUpperCase()}"`);
  }
  let undecodable = false; // the compressed body could not be decompressed
  const source = bodySource(req, () => (undecodable = true));
  if (source === req && Number(req.headers['content-length']) > options.limitBytes) {
    throw bodyError(413, 'entity.too.large', 'request entity too large');
  }
  const builder = new BodyBuilder(ctx, res, options.dataUriParam);
  let totalBytes = 0;
  let sawText = false;
  let turnStarted = performance.now();
  try {
    const small = source === req ? await smallBody(req) : null;
    const chunks = small ?? (source.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>);
    for await (const chunk of chunks) {
      totalBytes += chunk.length;
      if (totalBytes > options.limitBytes) throw bodyError(413, 'entity.too.large', 'request entity too large');
      const piece = text.decode(chunk, { stream: true });
      if (piece !== '') sawText = true;
      for (let from = 0; from < piece.length; from += FEED_CHARS) {
        await builder.feed(piece.slice(from, from + FEED_CHARS));
        builder.checkBudget(totalBytes - chunk.length + Math.min(chunk.length, from + FEED_CHARS));
        if (performance.now() - turnStarted > MAX_TURN_MS) {
          await nextTurn(); // timers, /health and other requests run between pieces
          turnStarted = performance.now();
        }
      }
    }
    if (!req.complete) throw interruptedUploadError(new Error('request aborted'));
    const last = text.decode();
    if (last !== '') sawText = true;
    if (!sawText) {
      req.body = {};
      return;
    }
    await builder.feed(last);
    req.body = await builder.finish();
  } catch (error) {
    await builder.abandon();
    if (source !== req) source.destroy();
    if (error instanceof AppError || (error as { type?: string }).type) throw error;
    if (!req.complete || req.readableAborted) throw interruptedUploadError(error);
    if (undecodable) throw bodyError(400, 'encoding.invalid', 'the compressed body could not be decompressed');
    throw error;
  }
}

/** Bodies up to this many bytes (by their Content-Length) are collected whole before they are parsed. */
const SMALL_BODY_BYTES = 64 * 1024;

/**
 * The chunks of a body of at most SMALL_BODY_BYTES (its declared Content-Length), collected with
 * 'data' and 'end' listeners; null for a larger or chunked body, which is read as a stream. A
 * stream's async iterator cost about 3 % of a create's CPU for a body of a hundred bytes
 * (bench/results/api-throughput.md); the chunks are then parsed exactly as a stream's would be.
 * @throws the request's error, or an Error when the client went away before the body ended.
 */
function smallBody(req: Request): Promise<Buffer[]> | null {
  const declared = Number(req.headers['content-length']);
  if (!(declared <= SMALL_BODY_BYTES) || req.readableFlowing !== null || req.readableEncoding !== null) return null;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const settle = (error?: Error) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', settle);
      req.off('close', onClose);
      if (error) reject(error);
      else resolve(chunks);
    };
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const onEnd = () => settle();
    const onClose = () => settle(new Error('request aborted'));
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', settle);
    req.once('close', onClose);
  });
}

const DECOMPRESSORS = new Map<string, (() => Transform) | null>([
  ['identity', null],
  ['gzip', createGunzip],
  ['deflate', createInflate],
  ['br', createBrotliDecompress],
]);

/** The request itself, or its decompressed body (gzip, deflate, br, as express.json accepted). */
function bodySource(req: Request, onUndecodable: () => void): Readable {
  const encoding = (req.get('content-encoding') ?? 'identity').toLowerCase();
  const make = DECOMPRESSORS.get(encoding);
  if (make === undefined) throw bodyError(415, 'encoding.unsupported', `unsupported content encoding "${encoding}"`);
  if (make === null) return req;
  const stream = make();
  stream.once('error', onUndecodable);
  req.pipe(stream);
  req.once('close', () => {
    if (!req.complete) stream.destroy(interruptedUploadError(new Error('request aborted')));
  });
  return stream;
}

type Container = { kind: 'object'; value: Record<string, unknown>; key: string | null } | { kind: 'array'; value: unknown[] };

/** The data: URI being streamed to a file. */
interface DataUriSink {
  decoder: DataUriDecoder;
  decoded: DecodedDataUri;
  /** Opened at the first write (after the folder is made). */
  file: WriteStream | null;
  fileError: Error | null;
  /** Decoded bytes not yet handed to the file. */
  pending: Buffer[];
  /** True once the URI's string has ended in the body. */
  ended: boolean;
  /** Where the sample goes: the `input` object. */
  owner: Record<string, unknown>;
  head: string;
  tail: string;
  /** Whitespace after `tail`, kept (its last SAMPLE_TAIL_CHARS) until a later character shows it is inside the URI. */
  trailingSpace: string;
  /** How many whitespace characters end the text so far. */
  trailingCount: number;
  chars: number;
}

/** Builds the JSON value from the tokens of stream-json, counting what it holds. */
class BodyBuilder {
  private readonly tokenizer = jsonParser({ packKeys: false, packStrings: false, packNumbers: false });
  private readonly stack: Container[] = [];
  private root: unknown = undefined;
  private parts: string[] = [];
  /** Cost of what is held outside the data: URI: characters of keys, strings and numbers, plus VALUE_COST / CONTAINER_COST. */
  private otherChars = 0;
  /** Characters of data: URI values streamed to files. */
  private dataChars = 0;
  /** 'string' | 'key' | 'number' | 'candidate' (may be a data: URI) | 'data' | null */
  private mode: 'string' | 'key' | 'number' | 'candidate' | 'data' | null = null;
  private sink: DataUriSink | null = null;
  /** The data: URIs streamed so far; only the last one left in place is kept. */
  private readonly sinks: DataUriSink[] = [];
  /** Leading text of a string that may be a data: URI, whitespace trimmed. */
  private candidateStart = '';

  constructor(
    private readonly ctx: ServiceContext,
    private readonly res: Response,
    private readonly dataUriParam: string,
  ) {}

  /** Tokenizes and applies the next piece of text, then writes the decoded bytes it completed. */
  async feed(text: string): Promise<void> {
    if (text !== '') this.apply(this.tokenize(text));
    await this.flushBytes();
  }

  /**
   * Refuses a body whose members besides the data: URI pass JSON_OTHER_LIMIT_BYTES: counted as
   * characters of keys, strings and numbers plus a memory cost per value (VALUE_COST, CONTAINER_COST),
   * and as raw bytes outside the URI (whitespace included;
   * a quarter of the URI's length is allowed on top for the escapes some encoders put in it, `\/`).
   */
  checkBudget(totalBytes: number): void {
    const outside = totalBytes - this.dataChars;
    if (this.otherChars > JSON_OTHER_LIMIT_BYTES || outside > JSON_OTHER_LIMIT_BYTES + this.dataChars / 4) {
      throw new AppError(
        'payload_too_large',
        `A JSON body may hold at most 1 MiB besides the recording in input.${this.dataUriParam}; send the recording as a data: URI there, as a link, or as an upload.`,
      );
    }
  }

  async finish(): Promise<unknown> {
    this.apply(this.tokenize(END_OF_INPUT));
    await this.flushBytes();
    const kept = this.sinks.at(-1);
    const input = isRecord(this.root) ? this.root.input : undefined;
    for (const sink of this.sinks) {
      const inPlace = sink === kept && input === sink.owner && sink.owner[this.dataUriParam] === sampleOf(sink);
      if (inPlace) this.streamed().decoded = sink.decoded;
      else await rm(sink.decoded.path, { force: true });
    }
    return this.root;
  }

  /** This request's StreamedDataUri in `res.locals`, made on first use. */
  private streamed(): StreamedDataUri {
    this.res.locals.streamedDataUri ??= { decoded: null, heldNul: false };
    return this.res.locals.streamedDataUri;
  }

  /** Removes every file made for this body (the body failed). */
  async abandon(): Promise<void> {
    for (const sink of this.sinks) {
      sink.file?.destroy();
      if (sink.file) await fileClosed(sink.file); // else the file could be created after the rm
      await rm(sink.decoded.path, { force: true });
    }
  }

  private tokenize(text: string | symbol): Token[] {
    let result: unknown;
    try {
      result = (this.tokenizer as unknown as (value: string | symbol) => unknown)(text);
    } catch {
      throw bodyError(400, 'entity.parse.failed', 'invalid JSON');
    }
    return typeof result === 'object' && result !== null ? (result as { values: Token[] }).values : [];
  }

  private apply(tokens: Token[]): void {
    for (const token of tokens) {
      switch (token.name) {
        case 'startObject':
        case 'startArray':
          this.otherChars += CONTAINER_COST;
          if (this.stack.length >= MAX_JSON_DEPTH) {
            throw new AppError('invalid_input', `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep.`);
          }
          this.stack.push(token.name === 'startObject' ? { kind: 'object', value: {}, key: null } : { kind: 'array', value: [] });
          break;
        case 'endObject':
        case 'endArray':
          this.place((this.stack.pop() as Container).value);
          break;
        case 'startKey':
          this.mode = 'key';
          this.parts = [];
          break;
        case 'endKey': {
          const top = this.stack.at(-1);
          if (top?.kind === 'object') top.key = this.parts.join('');
          this.mode = null;
          break;
        }
        case 'startString':
          this.parts = [];
          this.candidateStart = '';
          this.mode = this.isDataUriPlace() ? 'candidate' : 'string';
          break;
        case 'stringChunk':
          this.chunk(token.value);
          break;
        case 'endString':
          this.endString();
          break;
        case 'startNumber':
          this.mode = 'number';
          this.parts = [];
          break;
        case 'numberChunk':
          this.otherChars += token.value.length;
          this.parts.push(token.value);
          break;
        case 'endNumber':
          this.mode = null;
          this.place(Number(this.parts.join('')));
          break;
        case 'nullValue':
        case 'trueValue':
        case 'falseValue':
          this.place(token.value);
          break;
        default:
          break; // packed values are off; whitespace tokens carry nothing
      }
    }
  }

  private chunk(value: string): void {
    if (this.mode === 'data') {
      this.streamData(value);
      return;
    }
    this.parts.push(value);
    this.otherChars += value.length;
    if (this.mode !== 'candidate') return;
    this.candidateStart = (this.candidateStart + value).trimStart();
    if (this.candidateStart.length < 5) return;
    if (this.candidateStart.slice(0, 5).toLowerCase() !== 'data:') {
      this.mode = 'string';
      return;
    }
    this.mode = 'data';
    this.otherChars -= this.candidateStart.length; // leading whitespace stays counted as other
    this.parts = [];
    this.openSink();
    this.streamData(this.candidateStart);
  }

  private endString(): void {
    if (this.mode === 'data') {
      this.closeSink();
    } else {
      this.place(this.parts.join(''));
    }
    this.mode = null;
  }

  /** True when the string starting now is the value of `input.<param>` in a top-level object. */
  private isDataUriPlace(): boolean {
    const [root, input] = this.stack;
    return (
      this.stack.length === 2 &&
      root?.kind === 'object' &&
      root.key === 'input' &&
      input?.kind === 'object' &&
      input.key === this.dataUriParam
    );
  }

  private openSink(): void {
    const dir = join(this.ctx.config.dataDir, 'uploads');
    const path = join(dir, `data-uri-${randomBytes(9).toString('hex')}${PARTIAL_UPLOAD_SUFFIX}`);
    const decoded: DecodedDataUri = { path, bytes: 0, mimeType: 'application/octet-stream', error: null, claimed: false };
    const owner = (this.stack[1] as { value: Record<string, unknown> }).value;
    const sink: DataUriSink = {
      decoder: createDataUriDecoder(),
      decoded,
      file: null,
      fileError: null,
      pending: [],
      ended: false,
      owner,
      head: '',
      tail: '',
      trailingSpace: '',
      trailingCount: 0,
      chars: 0,
    };
    this.sinks.push(sink);
    this.sink = sink;
    this.res.once('close', () => {
      if (!decoded.claimed) void rm(path, { force: true });
    });
  }

  private streamData(text: string): void {
    const sink = this.sink as DataUriSink;
    if (text === '') return;
    if (sink.chars === 0) text = text.trimStart();
    sink.chars += text.length;
    this.dataChars += text.length;
    if (text.includes('\u0000')) this.streamed().heldNul = true;
    if (sink.head.length < SAMPLE_HEAD_CHARS) sink.head += text.slice(0, SAMPLE_HEAD_CHARS - sink.head.length);
    keepTail(sink, text);
    if (sink.decoded.error) return;
    let buffers: Buffer[];
    try {
      buffers = sink.decoder.write(text);
    } catch (error) {
      this.fail(sink, error);
      return;
    }
    this.take(sink, buffers);
  }

  private closeSink(): void {
    const sink = this.sink as DataUriSink;
    this.sink = null;
    sink.ended = true;
    if (!sink.decoded.error) {
      let buffers: Buffer[] = [];
      try {
        buffers = sink.decoder.end();
      } catch (error) {
        this.fail(sink, error);
      }
      this.take(sink, buffers);
    }
    sink.decoded.mimeType = sink.decoder.mimeType;
    this.place(sampleOf(sink));
  }

  /** Queues decoded bytes for the file; past MAX_MEDIA_BYTES the body is refused at once. */
  private take(sink: DataUriSink, buffers: Buffer[]): void {
    for (const buffer of buffers) {
      sink.decoded.bytes += buffer.length;
      if (sink.decoded.bytes > this.ctx.config.maxMediaBytes) throw mediaTooLargeError(this.ctx.config.maxMediaBytes);
      sink.pending.push(buffer);
    }
  }

  /** Keeps a decoding error to be thrown where the whole URI's decoding would have failed (createPrediction). */
  private fail(sink: DataUriSink, error: unknown): void {
    if (!(error instanceof AppError)) throw error;
    sink.decoded.error = error;
    sink.pending = [];
  }

  /** Hands decoded bytes to the files (waiting while a file is behind) and closes the files of ended URIs. */
  private async flushBytes(): Promise<void> {
    for (const sink of this.sinks) {
      if (sink.pending.length > 0 && !sink.file) {
        await mkdir(join(this.ctx.config.dataDir, 'uploads'), { recursive: true });
        sink.file = createWriteStream(sink.decoded.path);
        sink.file.on('error', (error) => {
          sink.fileError = error;
        });
      }
      const file = sink.file;
      for (const buffer of sink.pending) {
        if (sink.fileError) throw sink.fileError;
        if (file && !file.write(buffer)) await drained(file);
      }
      sink.pending = [];
      if (sink.fileError) throw sink.fileError;
      if (!sink.ended || file?.writableEnded) continue;
      if (!file && sink.decoded.error) continue;
      if (!file) {
        sink.file = createWriteStream(sink.decoded.path); // nothing decoded: an empty file, as writeDataUri leaves
        sink.file.on('error', (error) => {
          sink.fileError = error;
        });
      }
      const ending = sink.file as WriteStream;
      await new Promise<void>((resolve, reject) => {
        ending.end(() => (sink.fileError ? reject(sink.fileError) : resolve()));
      });
      if (sink.decoded.error) await rm(sink.decoded.path, { force: true });
    }
  }

  /** Puts a finished value into its container, or makes it the root. */
  private place(value: unknown): void {
    this.otherChars += VALUE_COST;
    const top = this.stack.at(-1);
    if (!top) {
      this.root = value;
    } else if (top.kind === 'array') {
      top.value.push(value);
    } else {
      const key = top.key ?? '';
      if (key === '__proto__') Object.defineProperty(top.value, key, { value, writable: true, enumerable: true, configurable: true });
      else top.value[key] = value;
      top.key = null;
    }
  }
}

/** Name ending of a data: URI file while its body is still being received (swept when left behind). */
export const PARTIAL_UPLOAD_SUFFIX = '.partial';

function drained(file: WriteStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      file.off('drain', done);
      file.off('error', done);
      file.off('close', done);
      resolve();
    };
    file.on('drain', done);
    file.on('error', done);
    file.on('close', done);
  });
}

/** Tracks the last SAMPLE_TAIL_CHARS characters before any trailing whitespace. */
function keepTail(sink: DataUriSink, text: string): void {
  const trimmed = text.trimEnd();
  if (trimmed === '') {
    sink.trailingSpace = (sink.trailingSpace + text).slice(-SAMPLE_TAIL_CHARS);
    sink.trailingCount += text.length;
    return;
  }
  sink.tail = (sink.tail + sink.trailingSpace + trimmed).slice(-SAMPLE_TAIL_CHARS);
  sink.trailingSpace = text.slice(trimmed.length).slice(-SAMPLE_TAIL_CHARS);
  sink.trailingCount = text.length - trimmed.length;
}

/**
 * What `req.body` holds in place of a streamed data: URI: the whole URI when short, else its header
 * and first 1024 data characters, then its last 1024, trimmed. audioSchema checks exactly these
 * parts of a URI and describeInput shows only the header, so both answer as for the whole URI.
 */
function sampleOf(sink: DataUriSink): string {
  const length = sink.chars - sink.trailingCount;
  if (length <= SAMPLE_HEAD_CHARS) return sink.head.slice(0, length);
  const comma = sink.head.indexOf(',');
  if (comma < 0 || comma > 256) return sink.head; // a header audioSchema refuses either way
  return sink.head.slice(0, comma + 1 + 1024) + sink.tail;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
