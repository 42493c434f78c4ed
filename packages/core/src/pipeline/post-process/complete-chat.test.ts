import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors/app-error.ts';
import { openChatSession } from './chat-session.ts';
import { completeChat } from './complete-chat.ts';
import type { ChatRequest } from './complete-chat.ts';
import type { LlmClientConfig } from './llm-client-config.ts';
import { startChatServer } from './test-support/start-chat-server.ts';
import type { ChatServer } from './test-support/start-chat-server.ts';
import { testLlmConfig } from './test-support/test-llm-config.ts';

const REQUEST: ChatRequest = { system: 'Rules and task.', user: 'Transcript:\n[00:00:01] SPEAKER_1: Hello.' };
let server: ChatServer;

beforeAll(async () => {
  server = await startChatServer(() => ({ content: 'ok' }));
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

function call(overrides: Partial<LlmClientConfig> = {}, request: ChatRequest = REQUEST): Promise<string> {
  return completeChat(openChatSession(testLlmConfig(server.baseUrl, overrides), new AbortController().signal), request);
}

async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe('post_processing_failed');
  return error as AppError;
}

describe('completeChat', () => {
  it('should send a chat-completions request with model, key, system and user messages', async () => {
    server.setScript(() => ({ content: 'A short summary.' }));
    expect(await call()).toBe('A short summary.');
    const [request] = server.requests;
    expect(request!.headers.authorization).toBe('Bearer test-key');
    expect(request!.body.model).toBe('test-model');
    expect(request!.body.messages).toEqual([
      { role: 'system', content: REQUEST.system },
      { role: 'user', content: REQUEST.user },
    ]);
    expect(request!.body.stream).toBeUndefined();
    expect(request!.body.response_format).toBeUndefined();
  });

  it('should ask for strict structured output when a JSON Schema is given', async () => {
    server.setScript(() => ({ content: '{}' }));
    const schema = { type: 'object', properties: {}, additionalProperties: false };
    await call({}, { ...REQUEST, jsonSchema: { name: 'thing', schema } });
    expect(server.requests[0]!.body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'thing', schema, strict: true } });
  });

  it('should retry a 429 and a 500 and then succeed', async () => {
    const replies = [{ status: 429, headers: { 'retry-after-ms': '5' } }, { status: 500 }, { content: 'third time' }];
    server.setScript((request) => replies[request.index]!);
    expect(await call()).toBe('third time');
    expect(server.requests).toHaveLength(3);
  });

  it('should stop after maxRetries and name the status and the attempts', async () => {
    server.setScript(() => ({ status: 503 }));
    const error = await failureOf(call({ maxRetries: 2 }));
    expect(error.message).toBe('the language model endpoint failed with HTTP 503 (3 attempts)');
    expect(server.requests).toHaveLength(3);
  });

  it('should say when the endpoint keeps rate limiting', async () => {
    server.setScript(() => ({ status: 429 }));
    const error = await failureOf(call({ maxRetries: 1 }));
    expect(error.message).toBe('the language model endpoint kept refusing with HTTP 429 Too Many Requests (2 attempts)');
  });

  it('should give up at once when Retry-After asks for more than 30 s', async () => {
    server.setScript(() => ({ status: 429, headers: { 'retry-after': '3600' } }));
    const error = await failureOf(call());
    expect(error.message).toContain('it asked to wait 3600 s');
    expect(server.requests).toHaveLength(1);
  });

  it('should back off exponentially between retries', async () => {
    server.setScript(() => ({ status: 500 }));
    await failureOf(call({ maxRetries: 2, retryBaseDelayMs: 100 }));
    const [a, b, c] = server.requests.map((request) => request.receivedAtMs);
    expect(b! - a!).toBeGreaterThanOrEqual(70);
    expect(c! - b!).toBeGreaterThanOrEqual(140);
  });

  it.each([
    [400, 'the language model endpoint rejected the request (HTTP 400: scripted error 400)'],
    [401, 'the language model endpoint refused the configured API key (HTTP 401)'],
    [404, 'the language model endpoint does not know the model "test-model" or the chat-completions path (HTTP 404)'],
    [409, 'the language model endpoint rejected the request (HTTP 409: scripted error 409)'],
  ])('should not retry HTTP %i and say why', async (status, message) => {
    server.setScript(() => ({ status }));
    const error = await failureOf(call());
    expect(error.message).toBe(message);
    expect(server.requests).toHaveLength(1);
  });

  it('should retry HTTP 408', async () => {
    server.setScript((request) => (request.index === 0 ? { status: 408 } : { content: 'fine' }));
    expect(await call()).toBe('fine');
  });

  it('should retry a timeout and then succeed', async () => {
    server.setScript((request) => (request.index === 0 ? { hang: true } : { content: 'late but here' }));
    expect(await call({ timeoutMs: 300 })).toBe('late but here');
    expect(server.requests).toHaveLength(2);
  });

  it('should fail with the time allowed when every attempt times out', async () => {
    server.setScript(() => ({ delayMs: 2_000, content: 'too late' }));
    const error = await failureOf(call({ timeoutMs: 200, maxRetries: 1 }));
    expect(error.message).toBe('the language model endpoint did not answer within 0.2 s (2 attempts)');
  });

  it('should fail clearly on a body that is not valid JSON', async () => {
    server.setScript(() => ({ rawBody: '{"id": "chatcmpl-1", "choices": [' }));
    const error = await failureOf(call());
    expect(error.message).toBe('the language model endpoint sent a response that is not valid JSON');
  });

  it('should fail clearly on JSON that is not a chat completion', async () => {
    server.setScript(() => ({ rawBody: '{"object": "list", "data": []}' }));
    const error = await failureOf(call());
    expect(error.message).toBe('the language model endpoint sent something that is not a chat completion');
  });

  it('should fail on an empty answer and on an answer cut off at the output limit', async () => {
    server.setScript(() => ({ content: '  ' }));
    expect((await failureOf(call())).message).toBe('the model returned an empty answer');
    server.setScript(() => ({ content: 'A summary that stops in the mid', finishReason: 'length' }));
    expect((await failureOf(call())).message).toBe("the model's answer was cut off at its output limit");
  });

  it('should fail clearly when the endpoint cannot be reached', async () => {
    const closed = await startChatServer(() => ({ content: 'never' }));
    await closed.close();
    const session = openChatSession(testLlmConfig(closed.baseUrl, { maxRetries: 1 }), new AbortController().signal);
    const error = await failureOf(completeChat(session, REQUEST));
    expect(error.message).toBe('the language model endpoint could not be reached (2 attempts)');
  });

  it('should stop at once with the abort reason when the signal aborts', async () => {
    server.setScript(() => ({ hang: true }));
    const controller = new AbortController();
    const pending = completeChat(openChatSession(testLlmConfig(server.baseUrl), controller.signal), REQUEST);
    setTimeout(() => controller.abort(new Error('cancelled by test')), 100);
    await expect(pending).rejects.toThrow('cancelled by test');
    expect(server.requests).toHaveLength(1);
  });
});
