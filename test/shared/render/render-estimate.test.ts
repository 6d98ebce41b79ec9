import { describe, expect, it } from 'vitest';
import { estimateBasisSentence, estimateRender, estimateSentence, type PastRender } from '../../../src/shared/render/render-estimate';

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
    expect(estimate?.basedOn).toBe('the last render of shot.blend on this farm (latest: 12 frames at 1920 × 1080, 64 samples, about 10 s per frame), scaled to 24 frames at 1920 × 1080, 128 samples');
  });

  it('reads as one sentence in the review and on its own in a tooltip, each said once', () => {
    const estimate = estimateRender({ frames: 24, width: 960, height: 540, samples: 64 }, [past(48, 960, 540, 64, 96, '2026-01-02T00:00:00Z')], 'shot.blend')!;
    const sentence = estimateSentence(estimate);
    expect(sentence).toBe('About 48 s to render, based on the last render of shot.blend on this farm (latest: 48 frames at 960 × 540, 64 samples, about 2 s per frame), scaled to 24 frames at 960 × 540, 64 samples.');
    expect(sentence).not.toMatch(/based on based on/i);
    expect(sentence).not.toMatch(/\.\.$/);
    expect(estimateBasisSentence(estimate)).toMatch(/^Based on the last render of shot\.blend .*, 64 samples\.$/);
    expect(estimateBasisSentence(estimate)).not.toMatch(/\.\.$/);
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
    expect(estimate?.basedOn).toMatch(/scaled to 1 frame at 200 × 200$/);
  });

  it('gives nothing without a usable earlier render or for an empty target', () => {
    expect(estimateRender({ frames: 10, width: 100, height: 100, samples: 1 }, [], 'a.blend')).toBeNull();
    expect(estimateRender({ frames: 10, width: 100, height: 100, samples: 1 }, [past(10, 100, 100, 1, 0, '2026-01-01T00:00:00Z')], 'a.blend')).toBeNull();
    expect(estimateRender({ frames: 0, width: 100, height: 100, samples: 1 }, [past(10, 100, 100, 1, 5, '2026-01-01T00:00:00Z')], 'a.blend')).toBeNull();
  });
});
