import { describe, expect, it } from 'vitest';
import { asSentence } from '../../../src/shared/text/sentence';

describe('a message as one sentence', () => {
  it('adds a full stop only where the text has no ending of its own', () => {
    expect(asSentence('The zip cannot be read')).toBe('The zip cannot be read.');
    expect(asSentence('The zip cannot be read.')).toBe('The zip cannot be read.');
    expect(asSentence('  Really?  ')).toBe('Really?');
    expect(asSentence('Validate with {"scenePath": "a.blend"}.')).toBe('Validate with {"scenePath": "a.blend"}.');
    expect(asSentence('It said "stop."')).toBe('It said "stop."');
    expect(asSentence('It holds (a.blend, b.blend)')).toBe('It holds (a.blend, b.blend).');
    expect(asSentence('')).toBe('');
  });
});
