import { describe, expect, it } from 'vitest';
import { runsRestricted } from '../../../src/blend/scene-python/restricted-expression';
import { isSimpleExpression } from '../../../src/blend/scene-python/simple-expression';

describe("Blender's simple expressions (its own evaluator, no Python)", () => {
  it.each([
    ['frame / 10', []],
    ['frame * 0.05 + offset', ['offset']],
    ['sin(frame) * var', ['var']],
    ['-var', ['var']],
    ['abs(var) + int(var)', ['var']],
    ['max(var, 1, 2) - min(var)', ['var']],
    ['var if var > 0 else 2', ['var']],
    ['var and 1 or not var', ['var']],
    ['0 < var <= 3 != 1', ['var']],
    ['lerp(0, 10, var) + clamp(var) + clamp(var, 0, 1) + smoothstep(0, 1, var)', ['var']],
    ['log(var) + log(var, 2) + pow(var, 2) + fmod(var, 3) + atan2(var, 1)', ['var']],
    ['pi * 2 + True - False', []],
    ['1.5e3 + .5 + 2. + 00', []],
    ['  ( ( frame ) )  ', []],
  ])('accepts %s', (expression, variables) => {
    expect(isSimpleExpression(expression, variables)).toBe(true);
  });

  it.each([
    ['wobble(frame)', []],
    ['var ** 2', ['var']],
    ['var % 3', ['var']],
    ['var // 2', ['var']],
    ['len((1, 2))', []],
    ['e * frame', []],
    ['self.location.x', []],
    ['unknown + 1', []],
    ['sin(frame, 2)', []],
    ['min()', []],
    ['010', []],
    ['1e', []],
    ['None', []],
    ['frame * 2 3', []],
    ['sin(1)', ['sin']],
    ['fráme', []],
  ])('refuses %s', (expression, variables) => {
    expect(isSimpleExpression(expression, variables)).toBe(false);
  });
});

describe('restricted Python: what Blender runs without trusting the file, in 3.4, 4.3 and 5.2', () => {
  it.each([
    ['len((1, 2)) * var', ['var']],
    ['var ** 2 + var % 3 + var // 2', ['var']],
    ['hypot(var, 1) + e + tau + factorial(3)', ['var']],
    ['round(var, 2)', ['var']],
    ['min(var, 2, key=None)', ['var']],
    ['sum((var, 1)) + all((1,)) + any([var])', ['var']],
    ["{'a': var}['a']", ['var']],
    ['(var, 2)[1]', ['var']],
    ['var is None', ['var']],
    ['var in (1, 2)', ['var']],
    ['~int(var) << 1', ['var']],
    ["len('ab')", []],
    ['float(frame)', []],
  ])('runs %s', (expression, variables) => {
    expect(runsRestricted(expression, variables, false)).toBe(true);
  });

  it.each([
    ['wobble(frame)', [], false],
    ['abs(var) + len([1])', ['var'], false],
    ['noise.random()', [], false],
    ['bpy.context.scene.frame_current', [], false],
    ['self.location.x', [], true],
    ['(lambda x: x)(var)', ['var'], false],
    ['sum([x for x in (1, 2)])', [], false],
    ["f'{var}' == '1'", ['var'], false],
    ['max(*(1, 2))', [], false],
    ['[1, 2][0:1][0] + var', ['var'], false],
    ['1 if any((var > 1, var < 0)) else 0', ['var'], false],
    ['len(x) and 1', ['x'], false],
    ['not len(x)', ['x'], false],
    ['0 < len(x) < 3', ['x'], false],
    ['(1, 2, 3)[-1]', [], false],
    ['_private(1)', [], false],
    ['(y := 2)', [], false],
    ['cbrt(8)', [], false],
    ["'unclosed", [], false],
  ])('refuses %s', (expression, variables, useSelf) => {
    expect(runsRestricted(expression, variables, useSelf)).toBe(false);
  });
});
