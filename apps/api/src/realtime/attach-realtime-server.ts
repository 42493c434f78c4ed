import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { AppError, authenticateApiKey, loadSileroModel, recordLiveSession, type ServiceContext, type SileroModel } from '@transcribe/core';
import { readPresentedKey } from '../http/authenticate.ts';
import { LiveSession, MAX_APPEND_BYTES, type LiveSessionLimits } from './live-session.ts';

/** The limits of live sessions (env LIVE_*, docs/live.md). */
export interface RealtimeLimits extends LiveSessionLimits {
  /** Open sessions per key at once (in this process). */
  maxSessionsPerKey: number;
  /** A session's longest life, seconds. */
  maxSessionSeconds: number;
  /** A session with no client message for this long is closed, seconds. */
  idleTimeoutSeconds: number;
}

/** What the endpoint tells the operator: opened sessions, their audio, and turn latency (speech end → completed). */
export interface RealtimeObserver {
  sessionOpened?(): void;
  sessionClosed?(audioSeconds: number): void;
  turnDone?(audioSeconds: number, latencySeconds: number): void;
}

/**
 * Another upgrade path serving the same sessions for a page of the service itself, with its own
 * credential (the portal's Live page: its session cookie, portal/authenticate-live-socket.ts).
 * Its refusals other than the origin's come after the upgrade, as an `error` event and the close code
 * 4000 + the HTTP status (4401, 4429, 4400), because a browser's WebSocket cannot read a refused
 * upgrade's status or body.
 */
export interface RealtimeEntrance {
  /** The upgrade path, e.g. `/portal/live/socket`. */
  path: string;
  /** Cache namespace the ended session is recorded in (recordLiveSession). */
  namespace: 'api' | 'portal';
  /** False refuses the upgrade with 403 before anything else (a page of another site: cross-site WebSocket hijacking). */
  allowsOrigin(req: IncomingMessage): boolean;
  /**
   * The id of the API key the session counts against and is charged to.
   * @throws AppError `unauthenticated` when the request carries no valid credential.
   */
  authenticate(req: IncomingMessage): Promise<string>;
}

/** The subprotocol prefix OpenAI's browser clients carry the key in (openai-node realtime/websocket.ts). */
const KEY_PROTOCOL = 'openai-insecure-api-key.';

/**
 * Serves `GET /v1/realtime?intent=transcription` as a WebSocket speaking OpenAI's Realtime
 * transcription protocol (docs/live.md; live-session.ts) on `server`'s upgrade requests (the `ws`
 * library, noServer mode); other upgrade paths are answered 404. Before the upgrade: the key from
 * `Authorization: Bearer` or the `openai-insecure-api-key.<key>` subprotocol (browsers cannot set
 * headers), a key in the query string refused (it leaks into logs), `intent=transcription` required
 * (or, as openai-node 6's OpenAIRealtimeWS connects, no intent and a `model`),
 * the key's open sessions counted against `maxSessionsPerKey` (429). Refusals are HTTP answers with
 * OpenAI's error body. Each session ends at `maxSessionSeconds`, after `idleTimeoutSeconds` without a
 * client message, or when it falls behind, each with an `error` event first; its audio is then recorded
 * and charged in the `api` namespace (recordLiveSession). `entrances` serve the same sessions at other
 * paths with their own credential (RealtimeEntrance).
 * @returns the function that closes every session and stops serving.
 */
export function attachRealtimeServer(
  server: Server,
  ctx: ServiceContext,
  limits: RealtimeLimits,
  observer: RealtimeObserver = {},
  entrances: readonly RealtimeEntrance[] = [],
): () => Promise<void> {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: 2 * MAX_APPEND_BYTES, // room for one 15 MiB append's base64 (20 MiB), so a bigger one gets the session's own error
    handleProtocols: (protocols) =>
      protocols.has('realtime') ? 'realtime' : ([...protocols].find((p) => !p.startsWith(KEY_PROTOCOL)) ?? false),
  });
  /** Each key's sessions that count against LIVE_MAX_SESSIONS_PER_KEY (see `counts`), removed when their TCP socket closes. */
  const slotsPerKey = new Map<string, Set<Slot>>();
  let vadModel: Promise<SileroModel> | null = null;
  const loadVad = () => (vadModel ??= loadSileroModel(ctx.config.vadModelPath));
  const sessions = new Set<{ socket: WebSocket; session: LiveSession; ended: Promise<void> }>();

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const entrance = entrances.find((item) => item.path === url.pathname) ?? null;
    if (url.pathname !== '/v1/realtime' && !entrance)
      return refuse(socket, 404, 'not_found', 'No WebSocket is served at this path; use /v1/realtime?intent=transcription.', null);
    if (entrance && !entrance.allowsOrigin(req))
      return refuse(socket, 403, 'forbidden_origin', 'This socket is only for pages of this service (the Origin is another site).', null);
    void admit(req, url, socket, entrance)
      .then(({ keyId, slot }) => {
        wss.handleUpgrade(req, socket, head, (ws) => {
          slot.ws = ws;
          open(ws, keyId, entrance?.namespace ?? 'api', socket);
        });
      })
      .catch((error: unknown) => {
        const known = error instanceof AppError ? error : new AppError('internal', 'The session could not be opened.');
        const status = known.code === 'unauthenticated' ? 401 : known.code === 'rate_limited' ? 429 : known.code === 'internal' ? 500 : 400;
        const code = known.code === 'unauthenticated' ? 'invalid_api_key' : known.code;
        if (entrance && !socket.destroyed) return refuseInBand(req, socket, head, status, code, known.message, known.param ?? null);
        refuse(socket, status, code, known.message, known.param ?? null);
      });
  };

  /** An entrance's refusal: the upgrade, an `error` event, and the close code 4000 + status (a browser can read both). */
  function refuseInBand(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    status: number,
    code: string,
    message: string,
    param: string | null,
  ) {
    wss.handleUpgrade(req, socket, head, (ws) => {
      const error = { type: status >= 500 ? 'server_error' : 'invalid_request_error', code, message, param, event_id: null };
      ws.send(JSON.stringify({ type: 'error', event_id: `event_${randomBytes(10).toString('hex')}`, error }));
      ws.close(4000 + status, code);
      ws.on('error', () => ws.terminate());
    });
  }

  async function admit(
    req: IncomingMessage,
    url: URL,
    socket: Duplex,
    entrance: RealtimeEntrance | null,
  ): Promise<{ keyId: string; slot: Slot }> {
    for (const name of ['api_key', 'key', 'token', 'apikey', 'access_token']) {
      if (url.searchParams.has(name)) {
        throw new AppError(
          'unauthenticated',
          `A key in the query string (${name}) is refused: URLs end up in logs. Send "Authorization: Bearer <key>", or from a browser the subprotocol "${KEY_PROTOCOL}<key>".`,
        );
      }
    }
    // openai-node 6's OpenAIRealtimeWS puts `model=` in the URL and no intent; its session.update then says "transcription".
    const intent = url.searchParams.get('intent');
    if (intent !== 'transcription' && !(intent === null && url.searchParams.has('model'))) {
      throw new AppError('invalid_input', 'Only transcription sessions are served: connect to /v1/realtime?intent=transcription.', {
        param: 'intent',
      });
    }
    const fromProtocol = String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim())
      .find((p) => p.startsWith(KEY_PROTOCOL))
      ?.slice(KEY_PROTOCOL.length);
    const presented = readPresentedKey(req.headers) ?? fromProtocol ?? null;
    if (!presented && !entrance)
      throw new AppError(
        'unauthenticated',
        `No API key was sent. Send "Authorization: Bearer <key>", or the subprotocol "${KEY_PROTOCOL}<key>".`,
      );
    const keyId = entrance
      ? await entrance.authenticate(req)
      : (await authenticateApiKey(ctx.database.db, presented!, new Date(), ctx.apiKeyCache)).id;
    // Checked and taken in one step (no await between), so sessions opening at once cannot overshoot.
    const slots = slotsPerKey.get(keyId) ?? new Set<Slot>();
    if ([...slots].filter(counts).length >= limits.maxSessionsPerKey) {
      throw new AppError(
        'rate_limited',
        `This key already has ${limits.maxSessionsPerKey} live sessions open (LIVE_MAX_SESSIONS_PER_KEY); close one first.`,
      );
    }
    const slot: Slot = { ws: null };
    slots.add(slot);
    slotsPerKey.set(keyId, slots);
    // The TCP socket's end frees the slot whatever ended it: a close by either side, a protocol error,
    // a reset, or an upgrade that failed after this check (then the session never opened).
    const release = () => {
      slots.delete(slot);
      if (slots.size === 0 && slotsPerKey.get(keyId) === slots) slotsPerKey.delete(keyId);
    };
    if (socket.destroyed) release();
    else socket.once('close', release);
    return { keyId, slot };
  }

  function open(ws: WebSocket, keyId: string, namespace: RealtimeEntrance['namespace'], socket: Duplex): void {
    observer.sessionOpened?.();
    const startedAt = new Date();
    const session = new LiveSession({
      engine: ctx.engine,
      vadModel: loadVad,
      limits,
      send: (event) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(event));
      },
      close: (code, reason) => ws.close(code, reason),
      onTurnDone: (audio, latency) => observer.turnDone?.(audio, latency),
    });
    let idle: NodeJS.Timeout;
    const endWith = (code: string, message: string) => {
      session.error(code, message, null);
      session.stop();
      ws.close(1000, code);
    };
    const touch = () => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        if (session.busy) return touch(); // a turn is still being recognised: the client is waiting, not idle
        endWith('idle_timeout', `No message for ${limits.idleTimeoutSeconds} s (LIVE_IDLE_TIMEOUT_SECONDS): the session is closed.`);
      }, limits.idleTimeoutSeconds * 1000);
    };
    const lifetime = setTimeout(
      () =>
        endWith(
          'session_expired',
          `The session reached its longest life of ${limits.maxSessionSeconds} s (LIVE_MAX_SESSION_SECONDS); open a new one.`,
        ),
      limits.maxSessionSeconds * 1000,
    );
    touch();
    let resolveEnded!: () => void;
    const entry = { socket: ws, session, ended: new Promise<void>((resolve) => (resolveEnded = resolve)) };
    sessions.add(entry);
    // Any bytes from the client are activity (a 15 MiB append takes a while to arrive), and so is the
    // time the server took to handle a message (a loaded machine must not make a client idle).
    socket.on('data', touch);
    ws.on('message', (data, isBinary) => {
      touch();
      if (isBinary) session.error('invalid_json', 'Send events as JSON text messages.', null);
      else session.handle(data.toString());
      touch();
    });
    ws.on('close', () => {
      socket.off('data', touch);
      clearTimeout(idle);
      clearTimeout(lifetime);
      session.stop();
      observer.sessionClosed?.(session.audioSeconds);
      void recordLiveSession(ctx, {
        sessionId: session.id,
        apiKeyId: keyId,
        startedAt,
        endedAt: new Date(),
        audioSeconds: session.audioSeconds,
        language: session.language,
        turns: session.turns,
        namespace,
      })
        .catch((error: unknown) =>
          ctx.logger?.error({ err: error, component: 'realtime' }, `live session ${session.id} could not be recorded`),
        )
        .finally(() => {
          sessions.delete(entry);
          resolveEnded();
        });
    });
    ws.on('error', () => ws.terminate());
    session.start();
  }

  server.on('upgrade', onUpgrade);
  return async () => {
    server.off('upgrade', onUpgrade);
    const ending = [...sessions].map((entry) => {
      entry.socket.close(1001, 'server stopping');
      return entry.ended;
    });
    await Promise.race([Promise.all(ending), new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
    for (const entry of sessions) entry.socket.terminate();
    wss.close();
  };
}

/** A session's place in its key's count: `ws` is null while the upgrade is under way. */
interface Slot {
  ws: WebSocket | null;
}

/**
 * Whether a slot counts against the key's limit: while the upgrade is under way and while the
 * WebSocket is open. Once either side has begun the closing handshake (the socket is CLOSING) the
 * session takes no more audio, so it no longer counts, though its TCP socket may take a moment to end
 * (a client that reconnects right after its close is not refused).
 */
function counts(slot: Slot): boolean {
  return slot.ws === null || slot.ws.readyState === slot.ws.OPEN;
}

/** Answers an upgrade request with an HTTP error in OpenAI's shape and closes the socket. */
function refuse(socket: Duplex, status: number, code: string, message: string, param: string | null): void {
  const body = JSON.stringify({ error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', param, code } });
  const reason =
    { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 429: 'Too Many Requests', 500: 'Internal Server Error' }[status] ??
    'Error';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
