import { describe, expect, it } from 'vitest';
import { formatDoctorReport, runDoctor } from '../../../src/render-node/blender/doctor';
import { BlenderPathError, type FindBlenderResult } from '../../../src/render-node/blender/locate';
import type { EeveeCheck } from '../../../src/render-node/blender/probe';
import { blenderInfo as info } from '../../helpers/blender-info';


const found: FindBlenderResult = { path: '/usr/bin/blender', source: 'system', searched: ['/usr/bin/blender'] };
const eeveeOk: EeveeCheck = { usable: true, reason: null, gpu: 'Mesa llvmpipe' };
const base = { env: {}, platform: 'linux' as const };

describe('runDoctor', () => {
  it('is ok with a capable Blender', async () => {
    const report = await runDoctor({ ...base, locate: () => found, probe: async () => info(), eevee: async () => eeveeOk });
    expect(report).toMatchObject({ ok: true, problems: [], source: 'system', searched: ['/usr/bin/blender'] });
    expect(report.found).toMatchObject({ version: '3.4.1', eeveeUsable: true });
    expect(formatDoctorReport(report)).toContain('Blender 3.4.1: /usr/bin/blender (found in a system folder)');
  });

  it('says how to install Blender and where it looked when there is none', async () => {
    const report = await runDoctor({
      ...base,
      locate: () => ({ path: null, source: null, searched: ['/a/blender', '/usr/bin/blender'] }),
    });
    expect(report.ok).toBe(false);
    expect(report.found).toBeNull();
    expect(report.problems[0]).toMatch(/not found.*BLENDER_PATH.*--blender/);
    const text = formatDoctorReport(report);
    expect(text).toContain('Looked in:');
    expect(text).toContain('    /a/blender');
  });

  it('reports a wrong --blender path instead of throwing', async () => {
    const report = await runDoctor({
      ...base,
      explicit: '/nope',
      locate: () => {
        throw new BlenderPathError('No Blender executable at /nope (given with --blender).');
      },
    });
    expect(report).toMatchObject({ ok: false, found: null, searched: ['/nope'] });
    expect(report.problems[0]).toContain('/nope');
  });

  it('fails a Blender that is too old', async () => {
    const report = await runDoctor({ ...base, locate: () => found, probe: async () => info({ version: '2.83.5', versionParts: [2, 83, 5] }), eevee: async () => eeveeOk });
    expect(report.ok).toBe(false);
    expect(report.problems.join('\n')).toMatch(/2\.83\.5 is too old.*2\.93/);
  });

  it('warns, without failing, about a missing denoiser and an unusable EEVEE', async () => {
    const report = await runDoctor({
      ...base,
      locate: () => found,
      probe: async () => info({ openImageDenoise: false }),
      eevee: async () => ({ usable: false, reason: 'no OpenGL context', gpu: null }),
    });
    expect(report.ok).toBe(true);
    expect(report.found?.eeveeUsable).toBe(false);
    expect(report.problems).toHaveLength(2);
    expect(report.problems[0]).toMatch(/no denoiser.*switched off/);
    expect(report.problems[1]).toMatch(/EEVEE.*no OpenGL context.*Cycles/);
    expect(formatDoctorReport(report)).toContain('Denoisers:        none');
  });

  it('notes a BLENDER_PATH that was not used', async () => {
    const report = await runDoctor({ ...base, env: { BLENDER_PATH: '/gone' }, locate: () => found, probe: async () => info(), eevee: async () => eeveeOk });
    expect(report.problems).toEqual([expect.stringContaining('BLENDER_PATH is set to /gone')]);
  });

  it('reports a Blender that does not answer', async () => {
    const report = await runDoctor({
      ...base,
      locate: () => found,
      probe: async () => {
        throw new Error('Blender at /usr/bin/blender was killed by SIGSEGV.');
      },
    });
    expect(report.ok).toBe(false);
    expect(report.problems[0]).toContain('SIGSEGV');
  });
});
