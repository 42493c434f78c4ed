import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAppError } from '../errors/app-error.ts';
import { assertPublicAddress, isPublicAddress } from './check-public-address.ts';

const REFUSED = [
  '127.0.0.1',
  '127.8.9.10',
  '10.0.0.1',
  '10.255.255.255',
  '172.16.0.1',
  '172.31.255.254',
  '192.168.1.1',
  '169.254.169.254',
  '169.254.0.1',
  '100.64.0.1',
  '100.127.255.254',
  '0.0.0.0',
  '0.1.2.3',
  '224.0.0.1',
  '239.255.255.250',
  '255.255.255.255',
  '192.0.2.1',
  '240.0.0.1',
  '::',
  '::1',
  '[::1]',
  'fe80::1',
  'fe80::1%eth0',
  'fc00::1',
  'fd12:3456:789a::1',
  'fec0::1',
  'ff02::1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:10.0.0.1',
  '::ffff:169.254.169.254',
  '::127.0.0.1',
  '64:ff9b::a00:1',
  '2002:7f00:1::1',
  '2001:db8::1',
  'not-an-address',
  '',
  '127.1',
];

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '100.63.255.255',
  '100.128.0.1',
  '172.32.0.1',
  '2606:4700:4700::1111',
  '2a00:1450:4001:80b::200e',
  '::ffff:8.8.8.8',
];

describe('isPublicAddress', () => {
  it.each(REFUSED)('should refuse %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(PUBLIC)('should accept the public address %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('should judge an IPv4-mapped IPv6 address like the IPv4 address it carries', () => {
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        expect(isPublicAddress(`::ffff:${v4}`)).toBe(isPublicAddress(v4));
      }),
    );
  });

  it('should refuse every address of 10/8, 127/8 and 169.254/16', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(fc.constantFrom('10', '127', '169.254'), octet, octet, octet, (prefix, a, b, c) => {
        const address = prefix.includes('.') ? `${prefix}.${b}.${c}` : `${prefix}.${a}.${b}.${c}`;
        expect(isPublicAddress(address)).toBe(false);
      }),
    );
  });
});

describe('assertPublicAddress', () => {
  it('should throw address_not_allowed naming the host for a private address', () => {
    let caught: unknown;
    try {
      assertPublicAddress('192.168.0.10', 'printer.lan');
    } catch (error) {
      caught = error;
    }
    expect(isAppError(caught, 'address_not_allowed')).toBe(true);
    expect((caught as Error).message).toContain('printer.lan');
  });

  it('should return quietly for a public address', () => {
    expect(() => assertPublicAddress('8.8.4.4')).not.toThrow();
  });
});
