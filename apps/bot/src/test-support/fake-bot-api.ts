/**
 * A local HTTP server speaking the Telegram Bot API for tests, driven by the real grammY client
 * (`client.apiRoot` pointing at it). It serves `getUpdates` (long polling with offsets), `getMe`,
 * `getFile` and file downloads (`/file/bot<token>/<path>`), takes `sendMessage`, `editMessageText`,
 * `sendDocument`, `sendVoice` and `sendAudio` (multipart), refuses methods named in `refusals`, `deleteMessage` (the message leaves `messages`), `answerCallbackQuery`,
 * `getChatMember` (see `admins`) and any other method, and records every call.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import busboy from 'busboy';
import type { Message, Update, User } from 'grammy/types';

/** A message the bot sent, as last sent or edited. */
export type FakeMessage = Message & { text?: string; reply_markup?: unknown };

export interface RecordedCall {
  method: string;
  payload: Record<string, unknown>;
  /** Files of a multipart call by their attach id: file name and bytes. */
  files: Record<string, { filename: string; content: Buffer }>;
  /** The `result` answered (a Message for send/edit methods), or undefined for an error answer. */
  result?: unknown;
}

/** A file the fake serves through getFile: a local file, or an error answer of getFile. */
export interface FakeFile {
  path?: string;
  /** Size reported by getFile (defaults to the real size). */
  size?: number;
  getFileError?: { code: number; description: string };
  /** Delay before getFile answers, ms (keeps a job busy). */
  delayMs?: number;
  /** Answer getFile with the absolute local path, as a local Bot API server started with `--local` does. */
  localPath?: boolean;
}

export interface FakeBotApi {
  /** Root for `client.apiRoot`, e.g. `http://127.0.0.1:PORT`. */
  apiRoot: string;
  token: string;
  calls: RecordedCall[];
  addFile(fileId: string, file: FakeFile): void;
  /** Queues an update (update_id is assigned) for the next getUpdates. */
  pushUpdate(update: Omit<Update, 'update_id'>): void;
  /** Resolves with the first call (past or future) that matches, or rejects after `timeoutMs`. */
  waitForCall(predicate: (call: RecordedCall) => boolean, timeoutMs?: number): Promise<RecordedCall>;
  /** The bot's messages as last sent or edited, by message id (deleted ones are gone). */
  messages: Map<number, FakeMessage>;
  /** User ids getChatMember reports as `administrator` (everyone else is a `member`). */
  admins: Set<number>;
  /** Methods answered with this error instead (e.g. `sendVoice` → 400 VOICE_MESSAGES_FORBIDDEN), until deleted. */
  refusals: Map<string, { code: number; description: string }>;
  /** From now on the server takes every request and never answers it (a Bot API that hangs), until `close()`. */
  stall(): void;
  /** Stops listening and drops every connection (connections are then refused), keeping its state, until `listenAgain()`. */
  goAway(): Promise<void>;
  /** Listens again on the same port, with the same updates, messages and calls. */
  listenAgain(): Promise<void>;
  close(): Promise<void>;
}

export const FAKE_BOT_USER = { id: 777000111, is_bot: true, first_name: 'Transcribe', username: 'transcribe_test_bot' };

/**
 * Starts the fake Bot API on 127.0.0.1 for `token`, on a free port or on `options.port` (a Bot API
 * root that comes up where the bot has been trying it).
 */
export async function startFakeBotApi(token = '123456:TEST-token_abc', options: { port?: number } = {}): Promise<FakeBotApi> {
  const calls: RecordedCall[] = [];
  const files = new Map<string, FakeFile>();
  const updates: Update[] = [];
  const messages = new Map<number, FakeMessage>();
  const admins = new Set<number>();
  const refusals = new Map<string, { code: number; description: string }>();
  /** Messages of people, from pushed updates, by id (for `reply_to_message`). */
  const received = new Map<number, Message>();
  const waiters = new Set<() => void>();
  let nextUpdateId = 1;
  let nextMessageId = 1000;
  const notify = () => waiters.forEach((wake) => wake());
  let stalled = false;

  type Reply = { status: number; body: { ok: boolean; result?: unknown; error_code?: number; description?: string } };
  const ok = (result: unknown): Reply => ({ status: 200, body: { ok: true, result } });
  const error = (code: number, description: string): Reply => ({ status: code, body: { ok: false, error_code: code, description } });
  const send = (res: ServerResponse, reply: Reply) => {
    res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
  };

  async function getUpdates(payload: Record<string, unknown>, req: IncomingMessage): Promise<Update[]> {
    const offset = Number(payload.offset ?? 0);
    while (updates.length > 0 && updates[0]!.update_id < offset) updates.shift();
    const timeoutMs = Number(payload.timeout ?? 0) * 1000;
    if (updates.length === 0 && timeoutMs > 0) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiters.delete(done);
          req.off('close', done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        waiters.add(done);
        req.on('close', done);
      });
    }
    return updates.slice(0, Number(payload.limit ?? 100));
  }

  function storeMessage(payload: Record<string, unknown>, extra: Record<string, unknown>): Message {
    // Telegram sends the answered message along (one level deep), as in callback queries on it.
    const answered = (payload.reply_parameters as { message_id?: number } | undefined)?.message_id;
    const replyTo = answered === undefined ? undefined : (messages.get(answered) ?? received.get(answered));
    const message = {
      message_id: nextMessageId++,
      date: Math.floor(Date.now() / 1000),
      chat: { id: Number(payload.chat_id), type: 'private', first_name: 'User' },
      from: FAKE_BOT_USER,
      ...extra,
      ...(payload.reply_markup ? { reply_markup: payload.reply_markup } : {}),
      ...(replyTo ? { reply_to_message: { ...replyTo, reply_to_message: undefined } } : {}),
    } as unknown as FakeMessage;
    messages.set(message.message_id, message);
    return message;
  }

  async function handleMethod(method: string, payload: Record<string, unknown>, req: IncomingMessage): Promise<Reply> {
    const refusal = refusals.get(method);
    if (refusal) return error(refusal.code, refusal.description);
    switch (method) {
      case 'getMe':
        return ok({ ...FAKE_BOT_USER, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false });
      case 'getUpdates':
        return ok(await getUpdates(payload, req));
      case 'getFile': {
        const file = files.get(String(payload.file_id));
        if (!file) return error(400, 'Bad Request: invalid file_id');
        if (file.delayMs) await new Promise((resolve) => setTimeout(resolve, file.delayMs));
        if (file.getFileError) return error(file.getFileError.code, file.getFileError.description);
        const size = file.size ?? (file.path ? (await stat(file.path)).size : 0);
        return ok({
          file_id: payload.file_id,
          file_unique_id: `u-${String(payload.file_id)}`,
          file_size: size,
          file_path: file.localPath ? file.path : `files/${String(payload.file_id)}`,
        });
      }
      case 'getChatMember': {
        const userId = Number(payload.user_id);
        return ok({ status: admins.has(userId) ? 'administrator' : 'member', user: { id: userId, is_bot: false, first_name: 'Member' } });
      }
      case 'sendMessage':
        return ok(storeMessage(payload, { text: payload.text }));
      case 'sendDocument':
        return ok(storeMessage(payload, { document: { file_id: 'doc', file_unique_id: 'doc' }, caption: payload.caption }));
      case 'sendAudio':
        return ok(
          storeMessage(payload, {
            audio: { file_id: 'audio', file_unique_id: 'audio', duration: Number(payload.duration ?? 0) },
            caption: payload.caption,
          }),
        );
      case 'sendVoice':
        return ok(
          storeMessage(payload, {
            voice: { file_id: 'voice', file_unique_id: 'voice', duration: Number(payload.duration ?? 0) },
            caption: payload.caption,
          }),
        );
      case 'editMessageText': {
        const message = messages.get(Number(payload.message_id));
        if (!message) return error(400, 'Bad Request: message to edit not found');
        if (message.text === payload.text && !payload.reply_markup) return error(400, 'Bad Request: message is not modified');
        const edited = { ...message, text: String(payload.text), reply_markup: payload.reply_markup } as FakeMessage;
        messages.set(message.message_id, edited);
        return ok(edited);
      }
      case 'deleteMessage': {
        if (!messages.delete(Number(payload.message_id))) return error(400, 'Bad Request: message to delete not found');
        return ok(true);
      }
      case 'editMessageReplyMarkup': {
        const message = messages.get(Number(payload.message_id));
        if (message) messages.set(message.message_id, { ...message, reply_markup: payload.reply_markup } as FakeMessage);
        return ok(message ?? true);
      }
      default:
        return ok(true);
    }
  }

  const server = createServer((req, res) => {
    if (stalled) return; // taken, never answered
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const fileMatch = /^\/file\/bot([^/]+)\/files\/(.+)$/.exec(url.pathname);
      if (fileMatch) {
        const file = files.get(decodeURIComponent(fileMatch[2]!));
        if (fileMatch[1] !== token || !file?.path) return void res.writeHead(404).end('not found');
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return void createReadStream(file.path).pipe(res);
      }
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(url.pathname);
      if (!match) return send(res, error(404, 'Not Found'));
      if (match[1] !== token) return send(res, error(401, 'Unauthorized'));
      const call = await readCall(match[2]!, req);
      const reply = await handleMethod(call.method, call.payload, req);
      call.result = reply.body.result;
      calls.push(call);
      notify();
      send(res, reply);
    })().catch((failure: unknown) => send(res, error(500, String(failure))));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };

  return {
    apiRoot: `http://127.0.0.1:${port}`,
    token,
    calls,
    messages,
    admins,
    refusals,
    addFile: (fileId, file) => void files.set(fileId, file),
    stall: () => void (stalled = true),
    goAway: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    listenAgain: () =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve());
      }),
    pushUpdate(update) {
      if (update.message) received.set(update.message.message_id, update.message);
      updates.push({ ...update, update_id: nextUpdateId++ } as Update);
      notify();
    },
    waitForCall(predicate, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = calls.find(predicate);
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching Bot API call within ${timeoutMs} ms; calls: ${calls.map((c) => c.method).join(', ')}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readCall(method: string, req: IncomingMessage): Promise<RecordedCall> {
  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('multipart/form-data')) return readMultipart(method, req);
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return { method, payload: text ? (JSON.parse(text) as Record<string, unknown>) : {}, files: {} };
}

function readMultipart(method: string, req: IncomingMessage): Promise<RecordedCall> {
  return new Promise((resolve, reject) => {
    const call: RecordedCall = { method, payload: {}, files: {} };
    const parser = busboy({ headers: req.headers });
    parser.on('field', (name, value) => {
      try {
        call.payload[name] = value.startsWith('{') || value.startsWith('[') ? JSON.parse(value) : value;
      } catch {
        call.payload[name] = value;
      }
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => (call.files[name] = { filename: info.filename ?? '', content: Buffer.concat(chunks) }));
    });
    parser.on('close', () => resolve(call));
    parser.on('error', reject);
    req.pipe(parser);
  });
}

/** A Telegram user for tests. */
export function testUser(id: number, firstName = 'Tester'): User {
  return { id, is_bot: false, first_name: firstName, language_code: 'en' };
}
