import { describe, expect, it } from 'vitest';
import { describeMissing, type PackSummary } from '../../../src/core/packing';
import { markUnchecked, sceneFilesOf, UNCHECKED_REASON, warningsForArtist } from '../../../src/host/files/unchecked-files';

type Place = PackSummary['places'][number];

const place = (stored: string, patch: Partial<Place> = {}): Place => ({
  kind: 'image',
  owner: stored.split('/').pop()!,
  stored,
  inBundle: null,
  path: stored.startsWith('//') ? `/home/artist/proj/${stored.slice(2)}` : stored,
  numbered: false,
  travels: false,
  missing: 'not-found',
  ...patch,
});

const summary: PackSummary = {
  fingerprint: 'f',
  bundled: true,
  files: 3,
  bytes: 100,
  places: [place('//textures/grid.png', { travels: true, missing: null, inBundle: 'textures/grid.png' }), place('//textures/gone.png'), place('/abs/gone.png')],
};

describe('files of a scene that reached Renderdrop as bytes only, or from disk', () => {
  it('from disk: found files travel, missing ones are gone from this computer', () => {
    expect(sceneFilesOf(summary, 'disk')).toEqual({ found: 2, gone: 2, unchecked: 0, bytesOnly: false });
    const files = summary.places.slice(1).map((place) => describeMissing(place, 'disk'));
    expect(markUnchecked(files, 'disk')).toEqual(files);
    expect(files[0]).toMatchObject({ path: '/home/artist/proj/textures/gone.png', reason: 'not on this computer' });
  });

  it('as bytes: a relative file could not be checked; an absolute one was looked for', () => {
    expect(sceneFilesOf(summary, 'stored')).toEqual({ found: 2, gone: 1, unchecked: 1, bytesOnly: true });
    const [relative, absolute] = markUnchecked(summary.places.slice(1).map((place) => describeMissing(place, 'stored')), 'stored');
    expect(relative).toMatchObject({ path: '//textures/gone.png', reason: UNCHECKED_REASON, unchecked: true });
    expect(absolute).toMatchObject({ path: '/abs/gone.png', reason: 'not on this computer' });
    expect(absolute!.unchecked).toBeUndefined();
  });

  it('as bytes: the review says a relative file could not be checked instead of that it was not sent', () => {
    const droppedAlone = describeMissing(summary.places[1]!, 'stored').reason;
    const warnings = [
      { code: 'missing-dependency', path: '//textures/gone.png', message: `The image "gone" uses //textures/gone.png: ${droppedAlone}. The farm renders without it.` },
      { code: 'newer-blender', message: 'Saved by a newer Blender.' },
    ];
    const told = warningsForArtist(warnings, 'stored');
    expect(told[0]!.message).toBe(`The image "gone" uses //textures/gone.png: ${UNCHECKED_REASON}. The farm renders without it.`);
    expect(told[0]!.message).not.toContain(droppedAlone);
    expect(told[1]).toEqual(warnings[1]);
    expect(warningsForArtist(warnings, 'disk')).toEqual(warnings);
  });
});
