import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { tagsOption } from '../../../src/cli/commands/node-workers';

describe('--tags of node worker and node serve', () => {
  it('reads tags as a person types them: commas or spaces, any case, each once', () => {
    expect(tagsOption('gpu,big-ram')).toEqual(['gpu', 'big-ram']);
    expect(tagsOption(' GPU, big-ram  gpu ')).toEqual(['gpu', 'big-ram']);
    expect(tagsOption('')).toEqual([]);
  });

  it('refuses what is not a tag, saying what a tag is', () => {
    expect(() => tagsOption('gpu,big ram!')).toThrow(InvalidArgumentError);
    expect(() => tagsOption('ram!')).toThrow(/"ram!" is not a tag: a tag is 1 to 32 lowercase letters/);
  });
});
