import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { FrameRangeEditor } from '../../src/renderer/components/review/frame-range-editor';
import { checkFrameRangeText } from '../../src/renderer/lib/frame-range-check';
import { configFromForm, formFromConfig, reviewErrors, sceneRangeOf } from '../../src/renderer/lib/review-form';

describe('frame range field', () => {
  it('counts the frames of valid text and explains invalid text', () => {
    expect(checkFrameRangeText('1-10, 20, 30-40/5', null)).toEqual({ ok: true, count: 14, message: '14 frames selected.', ranges: ['1-10,20,30-40/5'] });
    expect(checkFrameRangeText('12', null)).toMatchObject({ ok: true, count: 1, message: '1 frame selected.' });
    expect(checkFrameRangeText('', '1-250')).toMatchObject({ ok: true, count: 250, ranges: [] });
    expect(checkFrameRangeText('10-1', null)).toEqual({ ok: false, message: '"10-1" ends before it starts.' });
    expect(checkFrameRangeText('1-', null)).toMatchObject({ ok: false });
    expect(checkFrameRangeText('0-200000', null)).toMatchObject({ ok: false, message: 'More than 100000 frames.' });
  });

  it('says so when frames lie outside the scene\'s range, without refusing them', () => {
    const inside = checkFrameRangeText('1-24', '1-24');
    expect(inside).toMatchObject({ ok: true, count: 24 });
    expect(inside).not.toHaveProperty('outside');
    const beyond = checkFrameRangeText('20-30', '1-24');
    expect(beyond).toMatchObject({ ok: true, count: 11, outside: "6 frames (25–30) are outside the scene's range (1–24); Blender renders them all the same." });
    expect(checkFrameRangeText('0', '1-24/2')).toMatchObject({ ok: true, outside: expect.stringMatching(/^Frame 0 is outside the scene's range \(1–23\)/) });
    const html = renderToStaticMarkup(createElement(FrameRangeEditor, { value: '20-30', sceneRange: '1-24', onChange: () => undefined }));
    expect(html).toContain('aria-invalid="false"');
    expect(html).toMatch(/aria-describedby="([^"]+)-hint \1-outside"/);
    expect(html).toContain("outside the scene&#x27;s range");
  });

    it('renders a labelled input that says when it is invalid', () => {
    const valid = renderToStaticMarkup(createElement(FrameRangeEditor, { value: '1-3', sceneRange: '1-3', onChange: () => undefined }));
    expect(valid).toContain('aria-invalid="false"');
    expect(valid).toMatch(/<label for="([^"]+)">Frames<\/label><input id="\1"/);
    expect(valid).toContain('3 frames selected.');
    const invalid = renderToStaticMarkup(createElement(FrameRangeEditor, { value: '3-1', sceneRange: '1-3', onChange: () => undefined }));
    expect(invalid).toContain('aria-invalid="true"');
    expect(invalid).toContain('role="alert"');
  });
});

describe('review form', () => {
  it('round-trips the proposed settings and applies the artist’s changes', () => {
    const base = { colorManagementPreset: 'default' as const, frameRanges: ['1-3'], sampleCount: 4, activeCamera: 'Camera', notes: 'kept' };
    const form = formFromConfig(base);
    expect(form).toMatchObject({ frames: '1-3', samples: '4', camera: 'Camera', preset: 'default' });
    expect(configFromForm(form, base)).toEqual(base);
    const edited = configFromForm({ ...form, samples: '', frames: ' 1 - 2 ', preset: 'aces', outputFormat: 'OPEN_EXR' }, base);
    expect(edited).toEqual({ colorManagementPreset: 'aces', frameRanges: ['1-2'], activeCamera: 'Camera', notes: 'kept', outputFormat: 'OPEN_EXR' });
  });

  it('names every invalid field', () => {
    const form = formFromConfig({ colorManagementPreset: 'default' });
    expect(reviewErrors({ ...form, samples: '0', resolutionPercentage: '2000', frames: 'x' }, null)).toEqual({
      frames: expect.stringContaining('"x"'),
      samples: expect.any(String),
      resolutionPercentage: expect.any(String),
    });
    expect(reviewErrors(form, '1-3')).toEqual({});
    expect(sceneRangeOf({ frameStart: 1, frameEnd: 9, frameStep: 2 } as never)).toBe('1-9/2');
  });
});
