import { describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';

describe('MemorySecretStore', () => {
  it('keeps one key per profile', async () => {
    const store = new MemorySecretStore();
    await store.set('a', 'RJ-1');
    expect(await store.get('a')).toBe('RJ-1');
    expect(await store.get('b')).toBeNull();
    expect(await store.delete('a')).toBe(true);
    expect(await store.delete('a')).toBe(false);
    expect(await store.isAvailable()).toBe(true);
  });
});
