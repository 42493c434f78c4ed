import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../errors/app-error.ts';
import { createOutboundAgent } from './create-outbound-agent.ts';
import { createOutboundFetch } from './create-outbound-fetch.ts';
import { sendOutboundRequest } from './send-outbound-request.ts';

let server: http.Server;
let port: number;
const paths: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    paths.push(req.url ?? '');
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
    // `connection: close`: every request opens a new connection, so every one passes the lookup.
    if (to !== null) res.writeHead(302, { location: to, connection: 'close' }).end();
    else res.writeHead(200, { connection: 'close' }).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** 127.0.0.1 stands in for a public address: it is the one address the policy lets through. */
const policy = { allowPrivateNetwork: false, allowedAddresses: ['127.0.0.1'] };

/** A resolver that answers each name from a script, one answer per lookup, and counts lookups. */
function scriptedResolver(script: Record<string, string[]>): { resolve: (host: string) => Promise<LookupAddress[]>; lookups: string[] } {
  const lookups: string[] = [];
  const resolve = async (host: string): Promise<LookupAddress[]> => {
    lookups.push(host);
    const answers = script[host] ?? [];
    const address = answers.length > 1 ? answers.shift()! : answers[0];
    if (address === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return [{ address, family: 4 }];
  };
  return { resolve, lookups };
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

describe('createOutboundAgent with an address policy', () => {
  it('should connect to an allowed address', async () => {
    const answer = await sendOutboundRequest(`http://127.0.0.1:${port}/plain`, { agent: createOutboundAgent({ policy }) });
    expect(answer.status).toBe(200);
    answer.body.resume();
  });

  it('should refuse a literal private address before connecting', async () => {
    const before = paths.length;
    const error = await failureOf(sendOutboundRequest(`http://127.0.0.2:${port}/`, { agent: createOutboundAgent({ policy }) }));
    expect(isAppError(error, 'address_not_allowed')).toBe(true);
    expect(paths.length).toBe(before);
  });

  it('should refuse a redirect to a private address at connect time, for literal addresses and names', async () => {
    const { resolve } = scriptedResolver({ 'inside.test': ['10.0.0.7'] });
    const outboundFetch = createOutboundFetch({ policy, resolve });
    for (const target of [`http://127.0.0.2:${port}/secret`, `http://inside.test:${port}/secret`]) {
      const before = paths.length;
      const error = await failureOf(outboundFetch(`http://127.0.0.1:${port}/hop?to=${encodeURIComponent(target)}`));
      expect(isAppError((error as Error).cause, 'address_not_allowed')).toBe(true);
      expect(paths.slice(before)).toEqual([`/hop?to=${encodeURIComponent(target)}`]); // the first hop only
    }
  });

  it('should refuse a name that resolved to an allowed address and then to a private one (DNS rebinding)', async () => {
    const { resolve, lookups } = scriptedResolver({ 'rebind.test': ['127.0.0.1', '10.0.0.1'] });
    const agent = createOutboundAgent({ policy, resolve });
    const first = await sendOutboundRequest(`http://rebind.test:${port}/first`, { agent });
    expect(first.status).toBe(200);
    first.body.resume();
    const error = await failureOf(sendOutboundRequest(`http://rebind.test:${port}/second`, { agent }));
    expect(isAppError(error, 'address_not_allowed')).toBe(true);
    expect((error as Error).message).toContain('rebind.test (10.0.0.1)');
    expect(lookups).toEqual(['rebind.test', 'rebind.test']);
  });

  it('should refuse a name when any one of its addresses is private', async () => {
    const resolve = async (): Promise<LookupAddress[]> => [
      { address: '127.0.0.1', family: 4 },
      { address: '192.168.1.5', family: 4 },
    ];
    const error = await failureOf(sendOutboundRequest(`http://mixed.test:${port}/`, { agent: createOutboundAgent({ policy, resolve }) }));
    expect(isAppError(error, 'address_not_allowed')).toBe(true);
  });

  it('should let everything through without a policy (operator-configured endpoints)', async () => {
    const answer = await createOutboundFetch()(`http://127.0.0.1:${port}/hop?to=${encodeURIComponent(`http://localhost:${port}/end`)}`);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('ok');
  });
});
