import { describe, expect, it } from 'vitest';
import { drawingFor, rendererFindings } from '../../../src/render-node/plan/blender-choice';
import { sampleAnalysis } from '../../fixtures/analysis';

const r = (version: string, eevee: boolean | null = null) => ({ version, eevee });

describe('what validation says of the Blenders that will render a scene', () => {
  it('says when the version chosen for the scene is not the one that saved it', () => {
    const saved34 = sampleAnalysis({ savedWithBlender: '3.4' });
    expect(rendererFindings(saved34, [r('3.4.1'), r('4.3.2')], 'workers')).toEqual({ warnings: [], refusal: null });
    const only43 = rendererFindings(saved34, [r('5.2.2'), r('4.3.2')], 'workers');
    expect(only43.warnings).toEqual([
      { code: 'different-blender', message: 'Saved with Blender 3.4, rendered with Blender 4.3.2: this farm has no Blender 3.4, and a newer one may render some things differently.' },
    ]);
    expect(rendererFindings(saved34, [r('4.3.2')], 'node').warnings.map((w) => w.code)).toEqual(['different-blender']);
  });

  it('refuses a scene newer than every render worker in one line; the node itself leaves that to its analysis', () => {
    const saved52 = sampleAnalysis({ savedWithBlender: '5.2' });
    const { refusal } = rendererFindings(saved52, [r('3.4.1'), r('4.3.2'), r('3.4.1')], 'workers');
    expect(refusal).toEqual({
      name: 'SceneTooNew',
      type: 'blender',
      message: "The scene was saved with Blender 5.2, and this farm's render workers have Blender 3.4.1, 4.3.2 only, which cannot open it. Send it to a farm with Blender 5.2 or newer.",
    });
    expect(refusal!.message).not.toMatch(/\bsave (it|as)\b/i);
    expect(rendererFindings(saved52, [r('3.4.1')], 'node')).toEqual({ warnings: [], refusal: null });
  });

  it('says that no render worker is connected, and nothing when the workers cannot be listed', () => {
    expect(rendererFindings(sampleAnalysis(), [], 'workers').warnings.map((w) => w.code)).toEqual(['no-render-workers']);
    expect(rendererFindings(sampleAnalysis(), null, 'workers')).toEqual({ warnings: [], refusal: null });
  });

  it('says before Start that EEVEE renders with Cycles where the chosen Blender cannot draw, in the artist\'s words', () => {
    const eevee = sampleAnalysis({ savedWithBlender: '4.3', engine: 'BLENDER_EEVEE_NEXT' });
    const [warning] = rendererFindings(eevee, [r('4.3.2', false)], 'node').warnings;
    expect(warning).toEqual({
      code: 'engine-unavailable',
      message:
        "This farm's Blender cannot render EEVEE (it has no GPU drawing here): Start renders this job with Cycles instead, which looks different and may take longer. To keep EEVEE, send it to another farm.",
    });
    expect(rendererFindings(eevee, [r('4.3.2', false), r('4.3.2', true)], 'workers').warnings).toEqual([]);
    expect(rendererFindings(eevee, [r('4.3.2', null)], 'node').warnings).toEqual([]);
    expect(rendererFindings(sampleAnalysis({ savedWithBlender: '3.4', engine: 'BLENDER_WORKBENCH' }), [r('3.4.1', true), r('4.3.2', false)], 'workers').warnings).toEqual([]);
    expect(rendererFindings(sampleAnalysis({ engine: 'CYCLES' }), [r('3.4.1', false)], 'node').warnings).toEqual([]);
  });

  it('plans EEVEE as the Blenders of the chosen version can draw it', () => {
    expect(drawingFor({ savedWithBlender: '3.4' }, [r('3.4.1', true), r('4.3.2', false)])).toBe(true);
    expect(drawingFor({ savedWithBlender: '4.0' }, [r('3.4.1', true), r('4.3.2', false)])).toBe(false);
    expect(drawingFor({ savedWithBlender: '4.0' }, [r('4.3.2', null)])).toBeNull();
  });
});
