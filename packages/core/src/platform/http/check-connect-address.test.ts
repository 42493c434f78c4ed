import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { isAppError } from '../errors/app-error.ts';
import { assertAllowedAddress, createCheckedLookup } from './check-connect-address.ts';
import type { AddressPolicy } from './check-connect-address.ts';

const BOTH: LookupAddress[] = [
  { address: '2001:4860:4860::8888', family: 6 },
  { address: '8.8.8.8', family: 4 },
];

function ask(policy: AddressPolicy, answer: LookupAddress[], family: number, all: boolean, host = 'anything.example'): Promise<unknown> {
  return new Promise((resolve, reject) => {
    createCheckedLookup(policy, async () => answer)(host, { family, all }, (error, address, addressFamily) => {
      if (error) reject(error);
      else resolve(all ? address : [address, addressFamily]);
    });
  });
}

const strict = { allowPrivateNetwork: false };

describe('createCheckedLookup', () => {
  it('should answer every checked address when asked for all', async () => {
    expect(await ask(strict, BOTH, 0, true)).toEqual(BOTH);
  });

  it('should answer the first address of the requested family', async () => {
    expect(await ask(strict, BOTH, 4, false)).toEqual(['8.8.8.8', 4]);
    expect(await ask(strict, BOTH, 6, false)).toEqual(['2001:4860:4860::8888', 6]);
  });

  it('should fail with ENOTFOUND when no checked address has the family', async () => {
    const error = await ask(strict, [{ address: '8.8.8.8', family: 4 }], 6, false).catch((caught: unknown) => caught);
    expect((error as NodeJS.ErrnoException).code).toBe('ENOTFOUND');
  });

  it('should refuse the name, naming it, when one of its addresses is private', async () => {
    const error = await ask(strict, [...BOTH, { address: '10.0.0.1', family: 4 }], 0, true, 'inside.example').catch(
      (caught: unknown) => caught,
    );
    expect(isAppError(error, 'address_not_allowed')).toBe(true);
    expect((error as Error).message).toContain('inside.example (10.0.0.1)');
  });

  it('should resolve localhost with the system resolver and refuse it unless private networks are allowed', async () => {
    const lookup = (policy: AddressPolicy) =>
      new Promise((resolve) => {
        createCheckedLookup(policy)('localhost', { all: true }, (error, addresses) => resolve(error ?? addresses));
      });
    expect(isAppError(await lookup(strict), 'address_not_allowed')).toBe(true);
    expect(((await lookup({ allowPrivateNetwork: true })) as LookupAddress[]).map((entry) => entry.address)).toContain('127.0.0.1');
  });
});

describe('assertAllowedAddress', () => {
  it('should let allowedAddresses open single private addresses and ranges only', () => {
    const policy = { allowPrivateNetwork: false, allowedAddresses: ['10.0.0.0/8', 'fd00::5'] };
    expect(() => assertAllowedAddress('10.9.8.7', '10.9.8.7', policy)).not.toThrow();
    expect(() => assertAllowedAddress('[fd00::5]', 'fd00::5', policy)).not.toThrow();
    expect(() => assertAllowedAddress('192.168.0.1', 'x', policy)).toThrow(/private or local network address/);
  });

  it('should let everything through when private networks are allowed', () => {
    expect(() => assertAllowedAddress('127.0.0.1', 'localhost', { allowPrivateNetwork: true })).not.toThrow();
  });
});
