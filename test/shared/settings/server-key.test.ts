import { describe, expect, it } from 'vitest';
import { sameServer, serverKey, trimBaseUrl } from '../../../src/shared/settings/server-key';

describe('serverKey', () => {
  it('treats spellings of one address as one server', () => {
    const same = ['https://farm.example.com', 'https://farm.example.com/', 'https://FARM.Example.com//', ' https://farm.example.com:443 ', 'https://farm.example.com#frag'];
    for (const url of same) expect(serverKey(url)).toBe('https://farm.example.com');
    expect(sameServer('http://127.0.0.1:8787/', 'http://127.0.0.1:8787')).toBe(true);
    expect(sameServer('http://localhost:80/api', 'http://LOCALHOST/api/')).toBe(true);
    expect(sameServer('https://bücher.example', 'https://xn--bcher-kva.example')).toBe(true);
  });

  it('names another server for every difference that could send a key elsewhere', () => {
    const farm = 'https://farm.example.com/v1';
    const elsewhere = [
      'http://farm.example.com/v1',
      'https://farm.example.com:8443/v1',
      'https://farm.example.com.evil.net/v1',
      'https://farm.example.com@evil.net/v1',
      'https://evil.net/farm.example.com/v1',
      'https://farm.example.com/v2',
      'https://farm.example.com/v1/other',
      'https://farm.example.com/V1',
      'https://farm.example.com/v1?tenant=b',
      'https://user@farm.example.com/v1',
      'https://farm.example.com./v1',
    ];
    for (const url of elsewhere) expect([url, sameServer(farm, url)]).toEqual([url, false]);
  });

  it('matches nothing for text that is not an http(s) address, not even itself', () => {
    for (const url of ['', 'farm.example.com', 'ftp://farm.example.com', 'file:///etc', 'javascript:alert(1)', 'http://']) {
      expect(serverKey(url)).toBeNull();
      expect(sameServer(url, url)).toBe(false);
    }
  });

  it('trims an address for storage without changing what it names', () => {
    expect(trimBaseUrl(' https://farm.example.com/// ')).toBe('https://farm.example.com');
    expect(serverKey(trimBaseUrl('https://farm.example.com/'))).toBe(serverKey('https://farm.example.com'));
  });
});
