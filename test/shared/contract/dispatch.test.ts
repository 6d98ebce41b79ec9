import { describe, expect, it } from 'vitest';
import { diffConfigs } from '../../../src/shared/contract/config-diff';
import { dispatchCall, type ContractHandlers } from '../../../src/shared/contract/dispatch';
import { CALL_NAMES } from '../../../src/shared/contract/calls';

const toError = (error: unknown) => ({ kind: 'unknown' as const, message: (error as Error).message });

describe('dispatchCall', () => {
  const handlers = {
    'settings.update': async (payload: unknown) => payload,
    'jobs.get': async () => {
      throw new Error('boom');
    },
  } as unknown as ContractHandlers;

  it('refuses unknown calls and invalid payloads as values', async () => {
    expect(await dispatchCall(handlers, 'nope', {}, toError)).toMatchObject({ ok: false, error: { kind: 'contract', code: 'unknown-call' } });
    expect(await dispatchCall(handlers, 'toString', {}, toError)).toMatchObject({ ok: false, error: { code: 'unknown-call' } });
    const bad = await dispatchCall(handlers, 'settings.update', { theme: 'pink' }, toError);
    expect(bad).toMatchObject({ ok: false, error: { kind: 'contract', code: 'invalid-request' } });
    const extra = await dispatchCall(handlers, 'settings.update', { apiKey: 'x' }, toError);
    expect(extra.ok).toBe(false);
  });

  it('passes the parsed payload and turns a throw into an error value', async () => {
    expect(await dispatchCall(handlers, 'settings.update', { downloadDir: '  /tmp/x  ' }, toError)).toEqual({ ok: true, value: { downloadDir: '/tmp/x' } });
    expect(await dispatchCall(handlers, 'jobs.get', { jobId: 'j' }, toError)).toEqual({ ok: false, error: { kind: 'unknown', message: 'boom' } });
  });

  it('lists every call once', () => {
    expect(new Set(CALL_NAMES).size).toBe(CALL_NAMES.length);
    expect(CALL_NAMES).toContain('submissions.startRender');
  });
});

describe('diffConfigs', () => {
  it('marks changed fields with the server’s reason', () => {
    const diff = diffConfigs(
      { colorManagementPreset: 'default', denoisingEnabled: true, sampleCount: 8 },
      { colorManagementPreset: 'default', denoisingEnabled: false, sampleCount: 8, resolution: [64, 36], adjustments: [{ field: 'denoisingEnabled', requested: true, used: false, reason: 'no denoiser' }] },
    );
    expect(diff.find((d) => d.field === 'denoisingEnabled')).toEqual({ field: 'denoisingEnabled', requested: true, final: false, changed: true, reason: 'no denoiser' });
    expect(diff.find((d) => d.field === 'sampleCount')?.changed).toBe(false);
    expect(diff.find((d) => d.field === 'resolution')).toMatchObject({ requested: null, changed: false });
    expect(diff.some((d) => d.field === 'adjustments')).toBe(false);
  });
});
