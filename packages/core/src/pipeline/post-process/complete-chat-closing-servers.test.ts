import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSING_FRAMINGS } from '../../platform/http/test-support/start-framed-server.ts';
import type { ResponseFraming } from '../../platform/http/test-support/start-framed-server.ts';
import { openChatSession } from './chat-session.ts';
import { completeChat } from './complete-chat.ts';
import { startChatServer } from './test-support/start-chat-server.ts';
import type { ChatServer } from './test-support/start-chat-server.ts';
import { testLlmConfig } from './test-support/test-llm-config.ts';

// Language-model servers behind proxies that close the connection after each answer (HTTP/1.0
// front ends, `Connection: close`, bodies delimited by the end of the connection), with long
// answers (a summary of a long transcript). The openai client reads them through the outbound fetch.

/** A 2 MiB answer: well above every stream's high-water mark. */
const LONG = 'summary '.repeat(256 * 1024);
let framing: ResponseFraming = 'close';
let server: ChatServer;

beforeAll(async () => {
  server = await startChatServer(() => ({ content: LONG, framing, stallMs: 100 }));
});
afterAll(() => server.close());

describe('completeChat against servers that close the connection right after the answer', () => {
  for (const each of CLOSING_FRAMINGS) {
    it(`should read 2 MiB completions framed as ${each} whole, eight at a time`, async () => {
      framing = each;
      server.requests.length = 0;
      const session = openChatSession(testLlmConfig(server.baseUrl, { maxRetries: 0 }), new AbortController().signal);
      // Eight parts of one long transcript at once (map-reduce), each answer arriving whole with its
      // FIN while the process is busy for 100 ms.
      const parts = Array.from({ length: 8 }, (_, part) => completeChat(session, { system: 'Summarise.', user: `Part ${part}` }));
      expect(await Promise.all(parts)).toEqual(Array(8).fill(LONG));
      expect(server.requests.length).toBe(8);
    });
  }
});
