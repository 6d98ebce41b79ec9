import { describe, expect, it } from 'vitest';
import { decodeEntryName, entryPath, isMacMetadataEntry } from '../../../src/shared/zip/zip-entry-name';

describe('decodeEntryName', () => {
  it('reads flagged names as UTF-8', () => {
    expect(decodeEntryName(Buffer.from('Texturen Ü/Holz 木.png', 'utf8'), true)).toBe('Texturen Ü/Holz 木.png');
  });
  it('reads unflagged names that are valid UTF-8 as UTF-8 (Info-ZIP on Linux and macOS)', () => {
    expect(decodeEntryName(Buffer.from('Texturen Ü/Holz 木.png', 'utf8'), false)).toBe('Texturen Ü/Holz 木.png');
  });
  it('reads unflagged names that are not UTF-8 as code page 437', () => {
    // "Ü" is 0x9A and "é" 0x82 in code page 437; 0x9A alone is not valid UTF-8.
    expect(decodeEntryName(Buffer.from([0x9a, 0x62, 0x65, 0x72, 0x2f, 0x82, 0x2e, 0x70, 0x6e, 0x67]), false)).toBe('Über/é.png');
  });
  it('maps every high byte of code page 437 to one character', () => {
    const all = decodeEntryName(Buffer.from(Array.from({ length: 128 }, (_, i) => 0x80 + i)), false);
    expect([...all]).toHaveLength(128);
    expect(all.startsWith('ÇüéâäàåçêëèïîìÄÅ')).toBe(true);
    expect(all.endsWith('²■\u00a0')).toBe(true);
  });
  it('keeps plain ASCII as it is', () => {
    expect(decodeEntryName(Buffer.from('scene.blend'), false)).toBe('scene.blend');
  });
});

describe('isMacMetadataEntry', () => {
  it('recognises Finder metadata and AppleDouble files', () => {
    expect(isMacMetadataEntry('__MACOSX/')).toBe(true);
    expect(isMacMetadataEntry('__MACOSX/shot/._scene.blend')).toBe(true);
    expect(isMacMetadataEntry('._scene.blend')).toBe(true);
    expect(isMacMetadataEntry('shot/._scene.blend')).toBe(true);
    expect(isMacMetadataEntry('shot\\._scene.blend')).toBe(true);
  });
  it('leaves real files alone', () => {
    expect(isMacMetadataEntry('scene.blend')).toBe(false);
    expect(isMacMetadataEntry('shot/.hidden.png')).toBe(false);
    expect(isMacMetadataEntry('shot/__MACOSX/a.png')).toBe(false);
    expect(isMacMetadataEntry('a._b.blend')).toBe(false);
  });
});

describe('entryPath', () => {
  const ok = (name: string) => {
    const v = entryPath(name);
    return v.ok ? v.path : null;
  };
  const reason = (name: string) => {
    const v = entryPath(name);
    return v.ok ? null : v.reason;
  };

  it('keeps ordinary relative paths', () => {
    expect(ok('scene.blend')).toBe('scene.blend');
    expect(ok('textures/a.png')).toBe('textures/a.png');
    expect(ok('dots..in..name.txt')).toBe('dots..in..name.txt');
    expect(ok('a..b/c')).toBe('a..b/c');
  });
  it('drops ./ and repeated separators, and resolves .. that stays inside', () => {
    expect(ok('./a')).toBe('a');
    expect(ok('././sub//a')).toBe('sub/a');
    expect(ok('a/./b/../c.txt')).toBe('a/c.txt');
    expect(ok('textures/')).toBe('textures');
  });
  it('takes backslashes as folder separators (PowerShell Compress-Archive)', () => {
    expect(ok('textures\\wood\\a.png')).toBe('textures/wood/a.png');
    expect(ok('shot\\scene.blend')).toBe('shot/scene.blend');
  });
  it('refuses absolute and UNC paths', () => {
    expect(reason('/etc/passwd')).toMatch(/absolute/);
    expect(reason('\\Windows\\system.ini')).toMatch(/absolute/);
    expect(reason('\\\\server\\share\\x')).toMatch(/absolute/);
  });
  it('refuses drive letters', () => {
    expect(reason('C:/x.txt')).toMatch(/drive/);
    expect(reason('c:\\x.txt')).toMatch(/drive/);
    expect(reason('D:relative.txt')).toMatch(/drive/);
  });
  it('refuses paths that climb out of the folder', () => {
    expect(reason('..')).toMatch(/\.\./);
    expect(reason('../evil.txt')).toMatch(/\.\./);
    expect(reason('a/../../evil.txt')).toMatch(/\.\./);
    expect(reason('..\\evil.txt')).toMatch(/\.\./);
    expect(reason('a\\..\\..\\evil.txt')).toMatch(/\.\./);
  });
  it('refuses NUL bytes and empty names', () => {
    expect(reason('a.blend\0.png')).toMatch(/NUL/);
    expect(reason('')).toMatch(/empty/);
  });
});
