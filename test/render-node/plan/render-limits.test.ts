import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleAnalysis } from '../../fixtures/analysis';
import { blendBytes } from '../../helpers/scene-files';
import { startTestNode, uploadBytes, type TestNode } from '../../helpers/node';
import { putJobInStatus } from '../../helpers/job-status';
import { applyRenderLimits, DEFAULT_RENDER_LIMITS, renderedSize } from '../../../src/render-node/plan/render-limits';
import { planRender } from '../../../src/render-node/plan/render-plan';
import { parseByteSize, parseDuration, parsePixelCount } from '../../../src/cli/options/limit-options';

const caps = { cyclesDevices: ['CPU'], openImageDenoise: true, optix: false, viewTransforms: ['Standard', 'Filmic'], eeveeUsable: true, totalMemoryBytes: 8 * 1024 ** 3 };
const dirs = { outputDir: '/data/jobs/j/frames', compositeOutputDir: '/data/jobs/j/composite' };

function planned(config: Record<string, unknown>) {
  const result = planRender({ colorManagementPreset: 'default', ...config }, sampleAnalysis(), caps, dirs);
  if (!result.ok) throw new Error(result.message);
  return result;
}

describe('applyRenderLimits', () => {
  const limits = { ...DEFAULT_RENDER_LIMITS, maxFramesPerJob: 100, maxPixelsPerFrame: 1920 * 1080, maxSamples: 512 };

  it('refuses more frames than the limit, naming it', () => {
    const result = applyRenderLimits(planned({ frameRanges: ['1-101'] }), limits);
    expect(result).toMatchObject({ ok: false, code: 'limit_frames' });
    expect(!result.ok && result.message).toMatch(/at most 100 frames per job; this render has 101/);
    expect(applyRenderLimits(planned({ frameRanges: ['1-100'] }), limits).ok).toBe(true);
  });

  it('counts pixels after the percentage', () => {
    expect(renderedSize([1920, 1080], 150)).toEqual([2880, 1620]);
    expect(renderedSize([65536, 65536], 1000)).toEqual([655360, 655360]);
    const over = applyRenderLimits(planned({ resolution: [1920, 1080], resolutionPercentage: 101 }), limits);
    expect(over).toMatchObject({ ok: false, code: 'limit_pixels' });
    expect(!over.ok && over.message).toMatch(/1920 x 1080 at 101 % is 1939 x 1090/);
    expect(applyRenderLimits(planned({ resolution: [3840, 2160], resolutionPercentage: 50 }), limits).ok).toBe(true);
  });

  it('lowers samples to the limit and reports it in the adjustments', () => {
    const result = applyRenderLimits(planned({ sampleCount: 100_000 }), limits);
    if (!result.ok) throw new Error(result.message);
    expect(result.plan.samples).toBe(512);
    expect(result.finalConfig.sampleCount).toBe(512);
    expect(result.finalConfig.adjustments).toContainEqual({ field: 'sampleCount', requested: 100_000, used: 512, reason: 'This render node renders at most 512 samples per frame.' });
    const within = applyRenderLimits(planned({ sampleCount: 512 }), limits);
    expect(within.ok && within.finalConfig.adjustments.some((a) => a.field === 'sampleCount')).toBe(false);
  });
});

describe('limit options', () => {
  it('parse durations, sizes and pixel counts, and name the option when they cannot', () => {
    expect(parseDuration('90m', '--job-time-limit')).toBe(90 * 60_000);
    expect(parseDuration('24h', '--job-time-limit')).toBe(86_400_000);
    expect(parseDuration('7d', '--job-time-limit')).toBe(7 * 86_400_000);
    expect(() => parseDuration('soon', '--job-time-limit')).toThrow(/--job-time-limit must be a duration/);
    expect(() => parseDuration('0s', '--render-turn')).toThrow(/--render-turn/);
    expect(parseByteSize('20G', '--max-extracted')).toBe(20 * 1024 ** 3);
    expect(parseByteSize('512M', '--max-extracted')).toBe(512 * 1024 ** 2);
    expect(parseByteSize('1000', '--max-extracted')).toBe(1000);
    expect(() => parseByteSize('lots', '--max-extracted')).toThrow(/--max-extracted must be a size/);
    expect(parsePixelCount('8192x8192', '--max-pixels')).toBe(67_108_864);
    expect(parsePixelCount('2000000', '--max-pixels')).toBe(2_000_000);
    expect(() => parsePixelCount('big', '--max-pixels')).toThrow(/--max-pixels/);
  });
});

describe('render requests over the limits (real node, no Blender)', () => {
  let t: TestNode;
  beforeAll(async () => {
    t = await startTestNode({ blender: null });
  });
  afterAll(() => t?.stop());

  async function validatedJob(): Promise<string> {
    const slug = await uploadBytes(t, 'limits.blend', blendBytes(4096));
    const job = (await t.call('POST', '/jobs', { slug })).json;
    putJobInStatus(t.node.ctx, job.id, 'validated', { analysis: sampleAnalysis(), analysisId: crypto.randomUUID(), totalFrames: 3 });
    return job.id;
  }
  const render = (id: string, config: Record<string, unknown>) =>
    t.call('POST', `/jobs/${id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', ...config } });

  it('100,000 frames are refused with 400 limit_frames and the job stays validated', async () => {
    const id = await validatedJob();
    const res = await render(id, { frameRanges: ['1-100000'] });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('limit_frames');
    expect(res.json.error.message).toMatch(/at most 10,000 frames per job/);
    expect((await t.call('GET', `/jobs/${id}`)).json.data.status).toBe('validated');
  });

  it('65536 x 65536 at 1000 % is refused with 400 limit_pixels', async () => {
    const id = await validatedJob();
    const res = await render(id, { resolution: [65536, 65536], resolutionPercentage: 1000 });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('limit_pixels');
    expect(res.json.error.message).toMatch(/at most 67,108,864 pixels per frame; 65536 x 65536 at 1000 % is 655360 x 655360/);
  });

  it('1,000,000 samples are lowered to 16,384, reported in finalConfig.adjustments', async () => {
    const id = await validatedJob();
    const res = await render(id, { sampleCount: 1_000_000 });
    expect(res.status).toBe(200);
    expect(res.json.finalConfig.sampleCount).toBe(16_384);
    expect(res.json.finalConfig.adjustments).toContainEqual(expect.objectContaining({ field: 'sampleCount', requested: 1_000_000, used: 16_384 }));
    expect(t.node.ctx.jobs.get(id)!.renderPlan).toMatchObject({ samples: 16_384 });
  });
});
