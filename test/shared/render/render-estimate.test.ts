import { describe, expect, it } from 'vitest';
import { estimateRender, etaFromFrameRate, type PastRender } from '../../../src/shared/render/render-estimate';

const past = (frames: number, width: number, height: number, samples: number | null, seconds: number, endedAt: string): PastRender => ({
  shape: { frames, width, height, samples },
  normalizedSeconds: seconds,
  endedAt,
});

describe('estimateRender', () => {
  it('scales the time per frame by frames, pixels and samples, and says what it is based on', () => {
    const estimate = estimateRender({ frames: 24, width: 1920, height: 1080, samples: 128 }, [past(12, 1920, 1080, 64, 120, '2026-01-02T00:00:00Z')], 'shot.blend');
    expect(estimate?.seconds).toBe(480);
    expect(estimate?.renders).toBe(1);
    expect(estimate?.basedOn).toBe(
      'Based on the last render of shot.blend on this farm (latest: 12 frames at 1920 × 1080, 64 samples, about 10 s per frame), scaled to 24 frames at 1920 × 1080, 128 samples.',
    );
  });

  it('takes the median of the latest five renders, so one slow render does not skew it', () => {
    const history = [
      past(10, 100, 100, 10, 10, '2026-01-01T00:00:00Z'),
      past(10, 100, 100, 10, 10, '2026-01-02T00:00:00Z'),
      past(10, 100, 100, 10, 1000, '2026-01-03T00:00:00Z'),
      past(10, 100, 100, 10, 12, '2026-01-04T00:00:00Z'),
      past(10, 100, 100, 10, 12, '2026-01-05T00:00:00Z'),
      past(10, 100, 100, 10, 5000, '2025-01-01T00:00:00Z'),
    ];
    const estimate = estimateRender({ frames: 10, width: 100, height: 100, samples: 10 }, history, 'a.blend');
    expect(estimate?.seconds).toBe(12);
    expect(estimate?.renders).toBe(5);
  });

  it('leaves samples out when a render has none (Eevee), and scales resolution alone', () => {
    const estimate = estimateRender({ frames: 1, width: 200, height: 200, samples: 64 }, [past(1, 100, 100, null, 5, '2026-01-01T00:00:00Z')], 'e.blend');
    expect(estimate?.seconds).toBe(20);
    expect(estimate?.basedOn).toContain('scaled to 1 frame at 200 × 200.');
  });

  it('gives nothing without a usable earlier render or for an empty target', () => {
    expect(estimateRender({ frames: 10, width: 100, height: 100, samples: 1 }, [], 'a.blend')).toBeNull();
    expect(estimateRender({ frames: 10, width: 100, height: 100, samples: 1 }, [past(10, 100, 100, 1, 0, '2026-01-01T00:00:00Z')], 'a.blend')).toBeNull();
    expect(estimateRender({ frames: 0, width: 100, height: 100, samples: 1 }, [past(10, 100, 100, 1, 5, '2026-01-01T00:00:00Z')], 'a.blend')).toBeNull();
  });
});

describe('etaFromFrameRate', () => {
  const start = '2026-01-01T00:00:00Z';
  const at = (seconds: number) => Date.parse(start) + seconds * 1000;

  it('is the time per frame so far times the frames left', () => {
    expect(etaFromFrameRate(start, at(40), 4, 12)).toBe(80);
  });

  it('is unknown before the first frame, after the last, or with times that make no sense', () => {
    expect(etaFromFrameRate(start, at(40), 0, 12)).toBeNull();
    expect(etaFromFrameRate(start, at(40), 12, 12)).toBeNull();
    expect(etaFromFrameRate(null, at(40), 4, 12)).toBeNull();
    expect(etaFromFrameRate('not a date', at(40), 4, 12)).toBeNull();
    expect(etaFromFrameRate(start, at(-1), 4, 12)).toBeNull();
  });
});
