import { describe, expect, it } from 'vitest';
import { parseFileUrl } from './use-file-as-upload.ts';

const ID = 'abcdefghijklmnopqrstuvwxyz';

describe('parseFileUrl', () => {
  it.each([
    [`https://host.example/v1/replicate/v1/files/${ID}`, 'https://host.example/v1/replicate/v1'],
    [`https://host.example/v1/replicate/files/${ID}`, 'https://host.example/v1/replicate/v1'],
    [`https://host.example/v1/replicate/v1/files/${ID}/download`, 'https://host.example/v1/replicate/v1'],
    [`https://host.example/sub/v1/replicate/v1/files/${ID}`, 'https://host.example/sub/v1/replicate/v1'],
  ])('should find the file id in %s', (url, base) => {
    expect(parseFileUrl(url, base)).toBe(ID);
  });

  it.each([
    [`https://other.example/v1/replicate/v1/files/${ID}`],
    [`https://host.example/v1/replicate/v1/files/${ID}?x=1`],
    [`https://host.example/v1/replicate/v1/files/${ID.toUpperCase()}`],
    ['https://host.example/v1/replicate/v1/files/short'],
    [`https://host.example/elsewhere/files/${ID}`],
    ['data:audio/wav;base64,AAAA'],
    [42],
  ])('should treat %s as no file of this service', (value) => {
    expect(parseFileUrl(value, 'https://host.example/v1/replicate/v1')).toBeNull();
  });
});
