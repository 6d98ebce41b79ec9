import { describe, expect, it } from 'vitest';
import { drivenPropertyWords } from '../../../src/blend/scene-python/driven-property';

describe('what a driver drives, in the words of Blender\'s UI', () => {
  it.each([
    ['location', 2, 'Location Z'],
    ['rotation_euler', 0, 'Rotation X'],
    ['rotation_quaternion', 0, 'Rotation W'],
    ['scale', 1, 'Scale Y'],
    ['color', 3, 'Color A'],
    ['["wobble"]', -1, 'wobble'],
    ['key_blocks["Smile"].value', -1, 'Smile › Value'],
    ['modifiers["Wave"].height', -1, 'Wave › Height'],
    ['pose.bones["arm"].location', 1, 'arm › Location Y'],
    ['data.energy', -1, 'Energy'],
    ['hide_render', -1, 'Disable in Renders'],
  ])('%s [%i] reads "%s"', (path, index, words) => {
    expect(drivenPropertyWords(path, index)).toBe(words);
  });

  it('names a node socket by the name the file gives it, else by its place', () => {
    const sockets = (node: string, side: string, at: number | string) => (node === 'Emission' && side === 'inputs' && at === 1 ? 'Strength' : null);
    expect(drivenPropertyWords('nodes["Emission"].inputs[1].default_value', -1, sockets)).toBe('Emission › Strength');
    expect(drivenPropertyWords('nodes["Mix"].inputs[0].default_value', -1, sockets)).toBe('Mix › input 1');
    expect(drivenPropertyWords('nodes["RGB"].outputs[0].default_value', 0, sockets)).toBe('RGB › output 1 X');
  });

  it('gives a path it cannot read as it is stored', () => {
    expect(drivenPropertyWords('odd path!', 0)).toBe('odd path!');
  });
});
