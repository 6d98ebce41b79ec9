import { describe, expect, it, vi } from 'vitest';

const exposed: { key: string; api: Record<string, unknown> }[] = [];
const ipcRenderer = { invoke: vi.fn(), on: vi.fn(), removeListener: vi.fn(), send: vi.fn(), sendSync: vi.fn() };

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: Record<string, unknown>) => exposed.push({ key, api }) },
  ipcRenderer,
  webUtils: { getPathForFile: () => '' },
}));

describe('the preload (electron mocked)', () => {
  it('exposes exactly the contract transport as window.renderdrop, and nothing else', async () => {
    await import('../../src/preload/index');
    expect(exposed.map((e) => e.key)).toEqual(['renderdrop']);
    const api = exposed[0]!.api;
    expect(Object.keys(api).sort()).toEqual(['call', 'pathForFile', 'subscribe']);
    expect(Object.values(api).every((v) => typeof v === 'function')).toBe(true);
    expect(Object.values(api)).not.toContain(ipcRenderer);
    expect(Object.values(api)).not.toContain(ipcRenderer.invoke);
  });
});
