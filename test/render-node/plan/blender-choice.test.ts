import { describe, expect, it } from 'vitest';
import { drawingFor, pickBlender, rendererFindings, withBlenderWarning } from '../../../src/render-node/plan/blender-choice';
import { pickedBlenderVersion, versionsOpening } from '../../../src/shared/blender-versions';
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

describe('the Blender version an artist picks', () => {
  const farm = [r('3.4.1'), r('4.3.1'), r('4.3.2'), r('5.2.2')];

  it('names a version the farm has, by its series (the lowest of it) or exactly', () => {
    expect(pickedBlenderVersion('4.3', ['5.2.2', '4.3.2', '4.3.1'])).toBe('4.3.1');
    expect(pickedBlenderVersion('4.3.2', ['5.2.2', '4.3.2', '4.3.1'])).toBe('4.3.2');
    expect(pickedBlenderVersion('4.3.0', ['4.3.2'])).toBeNull();
    expect(pickedBlenderVersion('4.2', ['4.3.2'])).toBeNull();
    expect(versionsOpening('4.0', ['5.2.2', '3.4.1', '4.3.2', '4.3.2'])).toEqual(['4.3.2', '5.2.2']);
    expect(versionsOpening(null, ['4.3.2', '3.4.1'])).toEqual(['3.4.1', '4.3.2']);
  });

  it('is taken when the node has it and it opens the scene', () => {
    expect(pickBlender('4.3', '3.4', farm, 'workers')).toEqual({ ok: true, version: '4.3.1' });
    expect(pickBlender('5.2.2', '3.4', farm, 'workers')).toEqual({ ok: true, version: '5.2.2' });
    expect(pickBlender('3.4', null, farm, 'workers')).toEqual({ ok: true, version: '3.4.1' });
    expect(pickBlender('4.3', '4.3', [r('4.3.2')], 'node')).toEqual({ ok: true, version: '4.3.2' });
  });

  it('is refused in one line naming the versions the node has, when it has no such Blender', () => {
    expect(pickBlender('4.2', '3.4', farm, 'workers')).toEqual({
      ok: false,
      message: "This node has no Blender 4.2: it renders with Blender 3.4.1, 4.3.1, 4.3.2, 5.2.2 (its render workers'); ask for one of 3.4.1, 4.3.1, 4.3.2, 5.2.2, or leave the choice to the farm.",
    });
    expect(pickBlender('5.2', '3.4', [r('4.3.2')], 'node')).toEqual({
      ok: false,
      message: 'This node has no Blender 5.2: it renders with Blender 4.3.2 (its own); ask for 4.3.2, or leave the choice to the farm.',
    });
    expect(pickBlender('4.3', '3.4', [], 'workers')).toEqual({ ok: false, message: 'This node has no Blender 4.3: no render worker is connected; leave the choice to the farm.' });
    for (const refused of [pickBlender('4.2', '3.4', farm, 'workers'), pickBlender('4.3', '3.4', [], 'workers')]) {
      expect(refused.ok || refused.message.includes('\n')).toBe(false);
    }
  });

  it('is refused when it is older than the Blender that saved the scene', () => {
    expect(pickBlender('3.4', '4.3', farm, 'workers')).toEqual({
      ok: false,
      message: 'The scene was saved with Blender 4.3, which Blender 3.4.1 cannot open: ask for one of 4.3.1, 4.3.2, 5.2.2, or leave the choice to the farm.',
    });
    expect(pickBlender('4.3', '5.2', [r('4.3.2')], 'node')).toEqual({ ok: false, message: 'The scene was saved with Blender 5.2, which Blender 4.3.2 cannot open: leave the choice to the farm.' });
  });

  it('tells the different-blender warning anew for the version picked', () => {
    const saved34 = sampleAnalysis({
      savedWithBlender: '3.4',
      warnings: [
        { code: 'missing-dependency', message: 'gone.png is missing' },
        { code: 'different-blender', message: 'Saved with Blender 3.4, rendered with Blender 4.3.2: this farm has no Blender 3.4, and a newer one may render some things differently.' },
      ],
    });
    expect(withBlenderWarning(saved34, '5.2.2', true).warnings).toEqual([
      { code: 'missing-dependency', message: 'gone.png is missing' },
      { code: 'different-blender', message: 'Saved with Blender 3.4, rendered with Blender 5.2.2 as asked: a newer one may render some things differently.' },
    ]);
    expect(withBlenderWarning(saved34, '3.4.1', true).warnings).toEqual([{ code: 'missing-dependency', message: 'gone.png is missing' }]);
  });
});
