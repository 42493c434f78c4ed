/**
 * A local HTTP server speaking the OpenAI chat-completions protocol (POST {base}/chat/completions)
 * for tests and the benchmark, driven by the real `openai` client. It records every request and
 * answers from a script: content, structured JSON, latency, any status (429, 500, …), malformed
 * JSON, or no answer at all (a timeout).
 */
import http from 'node:http';
import { writeFramedAnswer } from '../../../platform/http/test-support/start-framed-server.ts';
import type { ResponseFraming } from '../../../platform/http/test-support/start-framed-server.ts';
import type { AddressInfo } from 'node:net';

/** One request as received. */
export interface RecordedChatRequest {
  /** 0-based order of arrival. */
  index: number;
  headers: http.IncomingHttpHeaders;
  body: {
    model: string;
    messages: { role: string; content: string }[];
    response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: Record<string, unknown> } };
    [key: string]: unknown;
  };
  /** The system and user message texts (shortcuts into `body.messages`). */
  system: string;
  user: string;
  /** ms since the server started, when the request arrived and when its answer was sent. */
  receivedAtMs: number;
  answeredAtMs: number | null;
}

/** How to answer one request. Defaults: status 200, finish_reason `stop`, no delay. */
export interface ChatReply {
  /** The assistant message text (200 answers). */
  content?: string;
  /** An HTTP error status, answered with an OpenAI-style error body. */
  status?: number;
  /** Response headers, e.g. `{ 'retry-after-ms': '10' }`. */
  headers?: Record<string, string>;
  /** A raw body sent as `application/json` instead of a completion (e.g. malformed JSON). */
  rawBody?: string;
  finishReason?: string;
  /** Latency before answering, in ms. */
  delayMs?: number;
  /** Never answer (the client times out). */
  hang?: boolean;
  /** How the answer is framed on the wire (default `keep-alive`: Node's own server): see ResponseFraming. */
  framing?: ResponseFraming;
  /** With a closing `framing`: block the process this long once the answer is sent (FramedAnswer.stallMs). */
  stallMs?: number;
}

export type ChatScript = (request: RecordedChatRequest) => ChatReply | Promise<ChatReply>;

export interface ChatServer {
  /** Base URL for the client, e.g. `http://127.0.0.1:40123/v1`. */
  baseUrl: string;
  requests: RecordedChatRequest[];
  /** Replaces the script for the following requests. */
  setScript: (script: ChatScript) => void;
  close: () => Promise<void>;
}

function completionBody(model: string, reply: ChatReply): string {
  return JSON.stringify({
    id: 'chatcmpl-local',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: reply.content ?? '', refusal: null },
        finish_reason: reply.finishReason ?? 'stop',
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
}

function errorBody(status: number): string {
  return JSON.stringify({ error: { message: `scripted error ${status}`, type: 'server_error', param: null, code: null } });
}

async function readBody(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function answer(record: RecordedChatRequest, reply: ChatReply, response: http.ServerResponse, t0: number): Promise<void> {
  if (reply.hang) return;
  if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
  if (response.destroyed) return;
  const headers = { 'content-type': 'application/json', ...reply.headers };
  const status = reply.status ?? 200;
  const body = reply.rawBody ?? (status === 200 ? completionBody(record.body.model, reply) : errorBody(status));
  record.answeredAtMs = performance.now() - t0;
  if (reply.framing === undefined || reply.framing === 'keep-alive') response.writeHead(status, headers).end(body);
  else writeFramedAnswer(response.socket!, reply.framing, { status, headers, body, stallMs: reply.stallMs }); // raw bytes: the response object is not used
}

/**
 * Starts the server on 127.0.0.1 (a free port). Anything other than POST /v1/chat/completions
 * gets 404. A script that throws answers 500 with the error's message, so a test sees it.
 */
export async function startChatServer(script: ChatScript): Promise<ChatServer> {
  const requests: RecordedChatRequest[] = [];
  let current = script;
  const t0 = performance.now();
  const server = http.createServer((request, response) => {
    void (async () => {
      if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
        response.writeHead(404, { 'content-type': 'application/json' }).end(errorBody(404));
        return;
      }
      const body = JSON.parse(await readBody(request)) as RecordedChatRequest['body'];
      const text = (role: string) => body.messages.find((message) => message.role === role)?.content ?? '';
      const record: RecordedChatRequest = {
        index: requests.length,
        headers: request.headers,
        body,
        system: text('system'),
        user: text('user'),
        receivedAtMs: performance.now() - t0,
        answeredAtMs: null,
      };
      requests.push(record);
      let reply: ChatReply;
      try {
        reply = await current(record);
      } catch (error) {
        reply = { status: 500, rawBody: JSON.stringify({ error: { message: String(error) } }) };
      }
      await answer(record, reply, response, t0);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    setScript: (next) => {
      current = next;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
