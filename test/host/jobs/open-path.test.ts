import { describe, expect, it } from 'vitest';
import { platformOpener } from '../../../src/host/jobs/open-path';

describe('platformOpener', () => {
  it('picks the platform opener', () => {
    expect(platformOpener('darwin')).toBe('open');
    expect(platformOpener('win32')).toBe('explorer');
    expect(platformOpener('linux')).toBe('xdg-open');
  });
});
