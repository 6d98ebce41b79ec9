import { describe, expect, it } from 'vitest';
import { takeEvents } from '../../src/renderer/bridge/event-stream-reader';
import { takePageSecret, type PageSecretPlaces } from '../../src/renderer/bridge/page-secret';

function places(meta: string | null, stored: Map<string, string>): PageSecretPlaces & { removed: () => boolean; forgotten: () => boolean } {
  let removed = false;
  let forgotten = false;
  const element = meta === null ? null : ({ content: meta, remove: () => (removed = true) } as unknown as HTMLMetaElement);
  return {
    document: { querySelector: ((selector: string) => (selector === 'meta[name="renderdrop-session"]' && !removed ? element : null)) as Document['querySelector'] },
    storage: { getItem: (key) => stored.get(key) ?? null, setItem: (key, value) => void stored.set(key, value) },
    forgetLoginLink: () => (forgotten = true),
    removed: () => removed,
    forgotten: () => forgotten,
  };
}

describe('the page secret of browser mode', () => {
  it('is taken from the login page once, kept in sessionStorage, and the used link leaves the address bar', () => {
    const stored = new Map<string, string>();
    const first = places('s3cret-from-login', stored);
    expect(takePageSecret(first)).toBe('s3cret-from-login');
    expect(first.removed()).toBe(true);
    expect(first.forgotten()).toBe(true);
    expect([...stored.values()]).toEqual(['s3cret-from-login']);
  });

  it('comes back from sessionStorage after a reload (the page no longer carries it)', () => {
    const stored = new Map<string, string>();
    takePageSecret(places('s3cret-from-login', stored));
    const reloaded = places(null, stored);
    expect(takePageSecret(reloaded)).toBe('s3cret-from-login');
    expect(reloaded.forgotten()).toBe(false);
  });

  it('is null in a tab that never had it, and survives storage being refused', () => {
    expect(takePageSecret(places(null, new Map()))).toBeNull();
    const refusing = places('only-in-memory', new Map());
    refusing.storage = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(takePageSecret(refusing)).toBe('only-in-memory');
  });
});

describe('takeEvents: server-sent events read from a fetch stream', () => {
  it('answers the data of each complete event and keeps the unfinished rest', () => {
    const { data, rest } = takeEvents('retry: 2000\n\ndata: {"a":1}\n\n: keep-alive\n\ndata: {"b"');
    expect(data).toEqual(['{"a":1}']);
    expect(rest).toBe('data: {"b"');
    expect(takeEvents(`${rest}:2}\n\n`).data).toEqual(['{"b":2}']);
  });

  it('joins several data lines and reads CRLF line ends', () => {
    expect(takeEvents('data: one\r\ndata:two\r\n\r\n').data).toEqual(['one\ntwo']);
  });
});
