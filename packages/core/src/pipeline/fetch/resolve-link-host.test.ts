import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../platform/errors/app-error.ts';
import { openLinkResponse } from './open-link-response.ts';
import { pinnedLookup, resolveLinkHost } from './resolve-link-host.ts';

const BOTH: LookupAddress[] = [
  { address: '2001:4860:4860::8888', family: 6 },
  { address: '8.8.8.8', family: 4 },
];

function ask(family: number, all: boolean): Promise<unknown> {
  return new Promise((resolve, reject) => {
    pinnedLookup(BOTH)('anything.example', { family, all }, (error, address, addressFamily) => {
      if (error) reject(error);
      else resolve(all ? address : [address, addressFamily]);
    });
  });
}

describe('pinnedLookup', () => {
  it('should answer every checked address when asked for all', async () => {
    expect(await ask(0, true)).toEqual(BOTH);
  });

  it('should answer the first address of the requested family', async () => {
    expect(await ask(4, false)).toEqual(['8.8.8.8', 4]);
    expect(await ask(6, false)).toEqual(['2001:4860:4860::8888', 6]);
  });

  it('should fail with ENOTFOUND when no checked address has the family', async () => {
    const error = await new Promise((resolve) => {
      pinnedLookup([{ address: '8.8.8.8', family: 4 }])('x', { family: 6 }, (caught) => resolve(caught));
    });
    expect((error as NodeJS.ErrnoException).code).toBe('ENOTFOUND');
  });
});

describe('resolveLinkHost', () => {
  it('should resolve localhost and refuse it unless private networks are allowed', async () => {
    const refused = await resolveLinkHost('localhost', { allowPrivateNetwork: false }).catch((caught: unknown) => caught);
    expect(isAppError(refused, 'address_not_allowed')).toBe(true);
    const allowed = await resolveLinkHost('localhost', { allowPrivateNetwork: true });
    expect(allowed.map((entry) => entry.address)).toContain('127.0.0.1');
  });

  it('should take bracketed IPv6 literals without DNS', async () => {
    expect(await resolveLinkHost('[2001:4860:4860::8888]', { allowPrivateNetwork: false })).toEqual([
      { address: '2001:4860:4860::8888', family: 6 },
    ]);
  });

  it('should let allowedAddresses open single private addresses and ranges only', async () => {
    const policy = { allowPrivateNetwork: false, allowedAddresses: ['10.0.0.0/8', 'fd00::5'] };
    await expect(resolveLinkHost('10.9.8.7', policy)).resolves.toHaveLength(1);
    await expect(resolveLinkHost('[fd00::5]', policy)).resolves.toHaveLength(1);
    const outside = await resolveLinkHost('192.168.0.1', policy).catch((caught: unknown) => caught);
    expect(isAppError(outside, 'address_not_allowed')).toBe(true);
  });
});

describe('openLinkResponse', () => {
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    server = http.createServer((request, response) => response.end(`host=${request.headers.host}`));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('should connect to the pinned address, never asking DNS again (no rebinding)', async () => {
    const url = new URL(`http://rebinding-test.invalid:${port}/file`);
    const pinned = [{ address: '127.0.0.1', family: 4 }];
    const response = await openLinkResponse(url, pinned, { connectTimeoutMs: 2000, signal: new AbortController().signal });
    let body = '';
    for await (const chunk of response) body += String(chunk);
    expect(response.statusCode).toBe(200);
    expect(body).toBe(`host=rebinding-test.invalid:${port}`);
  });
});
