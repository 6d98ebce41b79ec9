import { describe, expect, it } from 'vitest';
import { pyDirname, pyJoin, pyNormpath } from '../../../src/render-node/scene/python-paths';

describe("Python's POSIX path functions", () => {
  it('normpath keeps a leading double slash, drops trailing ones and climbs as Python does', () => {
    expect(pyNormpath('//a/b')).toBe('//a/b');
    expect(pyNormpath('///a//b/')).toBe('/a/b');
    expect(pyNormpath('/a/./b/../c')).toBe('/a/c');
    expect(pyNormpath('')).toBe('.');
    expect(pyNormpath('a/../..')).toBe('..');
    expect(pyNormpath('/..')).toBe('/');
    expect(pyNormpath('//')).toBe('//');
  });

  it('join lets an absolute part replace what came before', () => {
    expect(pyJoin('/a', 'b')).toBe('/a/b');
    expect(pyJoin('/a/', 'b')).toBe('/a/b');
    expect(pyJoin('/a', '/b')).toBe('/b');
    expect(pyJoin('', 'b')).toBe('b');
  });

  it('dirname keeps a root of slashes and drops trailing slashes otherwise', () => {
    expect(pyDirname('/a/b')).toBe('/a');
    expect(pyDirname('/a/b/')).toBe('/a/b');
    expect(pyDirname('/')).toBe('/');
    expect(pyDirname('//a')).toBe('//');
    expect(pyDirname('a')).toBe('');
  });
});
