import { describe, expect, it } from 'vitest';
import { CLOSING_FRAMINGS, startFramedServer } from '../../platform/http/test-support/start-framed-server.ts';
import { postWebhook } from './post-webhook.ts';

// Webhook receivers as they are: HTTP/1.0 frameworks, receivers that close right after their
// answer, answers delimited by the end of the connection, some of them long (an HTML error page,
// a debug echo). None may take the process down; each outcome is a plain result.

const local = { allowPrivateNetwork: true, timeoutMs: 10_000 };
const message = Buffer.from('{"id":"p1","status":"succeeded"}');
/** 4 MiB answer: nobody reads it, so it sits unread when the receiver closes. */
const LONG_ANSWER = Buffer.alloc(4 * 1024 * 1024, 0x20);

describe('postWebhook to receivers that close the connection right after their answer', () => {
  for (const framing of CLOSING_FRAMINGS) {
    for (const status of [200, 500]) {
      it(`should record a ${status} framed as ${framing} with a 4 MiB answer, five times in a row`, async () => {
        const receiver = await startFramedServer(framing, () => ({ status, body: LONG_ANSWER }));
        try {
          for (let round = 0; round < 5; round += 1) {
            const result = await postWebhook(`${receiver.url}/hook`, message, { 'webhook-id': `msg_${round}` }, local);
            expect(result).toMatchObject({ delivered: status === 200, statusCode: status, retryable: status !== 200 });
          }
          expect(receiver.requests.map((request) => request.body.toString())).toEqual(Array(5).fill(message.toString()));
        } finally {
          await receiver.close();
        }
      });
    }
  }
});
