import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/cli-errors';
import { testDeps } from './helpers/test-deps';
import {
  parseBaseUrlOption,
  parseBlenderVersionOption,
  parseCameraOption,
  parseFormatOption,
  parseFramesOption,
  parseOrderOption,
  parsePage,
  parsePageSize,
  parsePercentage,
  parsePresetOption,
  parseSamples,
  parseStatusOption,
  parsePriorityOption,
  parseRequiresOption,
} from '../../src/cli/options/parse-options';
import { renderConfigFrom } from '../../src/cli/context/render-overrides';
import { buildProgram } from '../../src/cli/index';

describe('frame range option', () => {
  it('accepts frames, ranges and steps, without blanks', () => {
    expect(parseFramesOption('1-10,20')).toBe('1-10,20');
    expect(parseFramesOption(' 1 - 10 , 20 ')).toBe('1-10,20');
    expect(parseFramesOption('1-100/5')).toBe('1-100/5');
    expect(parseFramesOption('0')).toBe('0');
  });

  it.each([
    ['', 'No frames'],
    ['1-x', 'not a frame or range'],
    ['10-1', 'ends before it starts'],
    ['1,,2', 'Empty item'],
    ['1-10/0', 'step below 1'],
    ['2000000', 'go up to'],
    ['-3', 'not a frame or range'],
  ])('refuses %j with a message that says why', (value, why) => {
    expect(() => parseFramesOption(value)).toThrow(InvalidArgumentError);
    expect(() => parseFramesOption(value)).toThrow(why);
  });
});

describe('number options', () => {
  it('take whole numbers inside their bounds', () => {
    expect(parseSamples('16')).toBe(16);
    expect(parseSamples(' 1 ')).toBe(1);
    expect(parsePercentage('1000')).toBe(1000);
    expect(parsePage('3')).toBe(3);
    expect(parsePageSize('100')).toBe(100);
  });

  it.each([
    [parseSamples, '0', 'from 1 to 1000000'],
    [parseSamples, '1.5', 'whole number'],
    [parseSamples, 'many', 'whole number'],
    [parseSamples, '-4', 'whole number'],
    [parsePercentage, '1001', 'from 1 to 1000'],
    [parsePage, '0', 'from 1'],
    [parsePageSize, '101', 'from 1 to 100'],
  ] as const)('refuse out-of-bounds and non-numbers (%#)', (parse, value, why) => {
    expect(() => parse(value)).toThrow(InvalidArgumentError);
    expect(() => parse(value)).toThrow(why);
  });
});

describe('choice options', () => {
  it('read output formats in any case, with aliases', () => {
    expect(parseFormatOption('png')).toBe('PNG');
    expect(parseFormatOption('jpg')).toBe('JPEG');
    expect(parseFormatOption('exr')).toBe('OPEN_EXR');
    expect(parseFormatOption('open-exr-multilayer')).toBe('OPEN_EXR_MULTILAYER');
    expect(() => parseFormatOption('gif')).toThrow(/not an output format.*PNG/);
  });

  it('read presets, statuses and cameras', () => {
    expect(parsePresetOption('ACES')).toBe('aces');
    expect(() => parsePresetOption('filmic')).toThrow(/default or aces/);
    expect(parseStatusOption('Rendering')).toBe('rendering');
    expect(() => parseStatusOption('done')).toThrow(/not a job status/);
    expect(parseCameraOption('CloseUp')).toBe('CloseUp');
    expect(() => parseCameraOption('  ')).toThrow(/name of a camera/);
  });

  it('read server addresses', () => {
    expect(parseBaseUrlOption('https://farm.example.com/')).toBe('https://farm.example.com');
    expect(parseBaseUrlOption('http://127.0.0.1:8787')).toBe('http://127.0.0.1:8787');
    expect(() => parseBaseUrlOption('farm.example.com')).toThrow(/not a URL/);
    expect(() => parseBaseUrlOption('ftp://farm')).toThrow(/http/);
    expect(() => parseBaseUrlOption('https://user:pw@farm')).toThrow(/no user name/);
  });
});

describe('render overrides', () => {
  it('send only what was given, with the preset always', () => {
    expect(renderConfigFrom({ preset: 'default' })).toEqual({ colorManagementPreset: 'default' });
    expect(renderConfigFrom({ preset: 'aces', frames: '1-10,20', samples: 16, percentage: 50, camera: 'CloseUp', format: 'JPEG' })).toEqual({
      colorManagementPreset: 'aces',
      frameRanges: ['1-10,20'],
      sampleCount: 16,
      resolutionPercentage: 50,
      activeCamera: 'CloseUp',
      outputFormat: 'JPEG',
    });
  });

  it('refuse values the render configuration does not allow', () => {
    expect(() => renderConfigFrom({ preset: 'default', samples: 0 })).toThrow(UsageError);
  });

  it('send the frame order only when it is in frame order (--order sequential): spread is the node\'s default', () => {
    expect(parseOrderOption(' Spread ')).toBe('spread');
    expect(parseOrderOption('sequential')).toBe('sequential');
    expect(() => parseOrderOption('binary')).toThrow(/spread \(across the shot first\) or sequential/);
    expect(renderConfigFrom({ preset: 'default', order: 'spread' })).toEqual({ colorManagementPreset: 'default' });
    expect(renderConfigFrom({ preset: 'default', order: 'sequential' })).toEqual({ colorManagementPreset: 'default', frameOrder: 'sequential' });
  });

  it('name the Blender version to render with (--blender-version), a series or an exact one', () => {
    expect(renderConfigFrom({ preset: 'default', blenderVersion: parseBlenderVersionOption(' 4.3 ') })).toEqual({ colorManagementPreset: 'default', blenderVersion: '4.3' });
    expect(parseBlenderVersionOption('4.3.2')).toBe('4.3.2');
    for (const bad of ['4', 'latest', '4.3.2.1', 'v4.3']) expect(() => parseBlenderVersionOption(bad)).toThrow(InvalidArgumentError);
  });
});

describe('command line', () => {
  const parse = (args: string[]) => {
    const program = buildProgram({ ...testDeps().deps, setExitCode: () => undefined });
    return program.parseAsync(['node', 'renderdrop', ...args]);
  };

  it.each([
    [['submit', 'a.blend', '--frames', '5-1']],
    [['submit', 'a.blend', '--samples', 'lots']],
    [['submit', 'a.blend', '--preset', 'filmic']],
    [['submit', 'a.blend', '--blender-version', 'newest']],
    [['submit']],
    [['jobs', '--page-size', '0']],
    [['jobs', '--status', 'nope']],
    [['status']],
    [['profile', 'add', 'x']],
  ])('refuses %j before doing anything', async (args) => {
    await expect(parse(args)).rejects.toMatchObject({ exitCode: expect.any(Number), code: expect.stringMatching(/^commander\./) });
  });
});

describe("a studio's farm options", () => {
  it('reads --priority from 0 to 100 and --requires as tags, in words when they are not', () => {
    expect(parsePriorityOption('80')).toBe(80);
    expect(() => parsePriorityOption('101')).toThrow('--priority must be from 0 to 100 (got 101).');
    expect(parseRequiresOption('Big-RAM, gpu')).toBe('big-ram,gpu');
    expect(() => parseRequiresOption('big ram!')).toThrow(/^"ram!" is not a tag: a tag is 1 to 32 lowercase letters.* Example: --requires big-ram,gpu\.$/);
    expect(() => parseRequiresOption(' , ')).toThrow('--requires takes worker tags, for example --requires big-ram,gpu.');
    expect(renderConfigFrom({ preset: 'default', priority: 75, requires: 'big-ram,gpu' })).toEqual({ colorManagementPreset: 'default', priority: 75, requires: ['big-ram', 'gpu'] });
  });
});
