import { describe, expect, it } from 'vitest';
import { atLeast, routeChunk } from '../../../src/render-node/distributed/blender-versions';

const w = (name: string, blenderVersion: string) => ({ name, blenderVersion });

describe('Blender versions', () => {
  it('compares major.minor and ignores the patch release', () => {
    expect(atLeast('4.2.3', '4.2')).toBe(true);
    expect(atLeast('4.2.0', '4.1')).toBe(true);
    expect(atLeast('3.6.9', '4.0')).toBe(false);
    expect(atLeast('4.10.0', '4.9')).toBe(true);
    expect(atLeast('5.0.0', '4.5')).toBe(true);
    expect(atLeast('4.1.9', '4.2')).toBe(false);
  });
});

describe('chunk routing', () => {
  const base = { failures: {}, maxFailures: 2 };

  it('renders when its Blender is new enough', () => {
    expect(routeChunk({ ...base, minimum: '3.4', self: w('a', '3.4.1'), others: [w('b', '4.2.0')] })).toBe('render');
    expect(routeChunk({ ...base, minimum: null, self: w('a', '2.93.0'), others: [w('b', '4.2.0')] })).toBe('render');
  });

  it('hands over to a newer live worker, and renders when there is none', () => {
    expect(routeChunk({ ...base, minimum: '4.2', self: w('a', '3.4.1'), others: [w('b', '4.2.0')] })).toBe('hand-over');
    expect(routeChunk({ ...base, minimum: '4.2', self: w('a', '3.4.1'), others: [w('b', '3.6.0')] })).toBe('render');
    expect(routeChunk({ ...base, minimum: '4.2', self: w('a', '3.4.1'), others: [] })).toBe('render');
  });

  it('does not count itself, under the same name, as another worker', () => {
    expect(routeChunk({ ...base, minimum: '4.2', self: w('a', '3.4.1'), others: [w('a', '4.2.0')] })).toBe('render');
  });

  it('hands over a job it failed repeatedly while another worker can take it', () => {
    const failures = { a: 2, b: 1 };
    expect(routeChunk({ failures, maxFailures: 2, minimum: null, self: w('a', '4.2.0'), others: [w('b', '4.2.0')] })).toBe('hand-over');
    expect(routeChunk({ failures, maxFailures: 2, minimum: null, self: w('b', '4.2.0'), others: [w('a', '4.2.0')] })).toBe('render');
    expect(routeChunk({ failures: { a: 2, b: 2 }, maxFailures: 2, minimum: null, self: w('a', '4.2.0'), others: [w('b', '4.2.0')] })).toBe('render');
    expect(routeChunk({ failures, maxFailures: 2, minimum: null, self: w('a', '4.2.0'), others: [] })).toBe('render');
  });

  it('does not hand a job it failed to a worker too old for the scene when it is new enough itself', () => {
    const failures = { a: 2 };
    expect(routeChunk({ failures, maxFailures: 2, minimum: '4.2', self: w('a', '4.2.0'), others: [w('b', '3.4.1')] })).toBe('render');
    expect(routeChunk({ failures, maxFailures: 2, minimum: '4.2', self: w('a', '3.4.1'), others: [w('b', '3.6.1')] })).toBe('hand-over');
  });
});
