import { describe, expect, it } from 'vitest';
import { FileHandOver } from '../../../src/main/launch/file-hand-over';

describe('FileHandOver', () => {
  it('keeps files until a receiver is set, then passes them on in order, once', () => {
    const handOver = new FileHandOver();
    handOver.add(['/a.blend', '/b.zip']);
    handOver.add(['/a.blend']);
    expect(handOver.pending).toEqual(['/a.blend', '/b.zip']);
    const received: string[][] = [];
    handOver.receiveWith((paths) => received.push(paths));
    expect(received).toEqual([['/a.blend', '/b.zip']]);
    expect(handOver.pending).toEqual([]);
    handOver.add(['/c.blend']);
    handOver.add([]);
    expect(received).toEqual([['/a.blend', '/b.zip'], ['/c.blend']]);
  });
});
