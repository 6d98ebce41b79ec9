import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { PatchStream } from '../../../src/blend/pack/patch-stream';

async function run(input: Buffer, chunkSize: number, patches: { offset: number; length: number; data: string }[]): Promise<Buffer> {
  const chunks = Array.from({ length: Math.ceil(input.length / chunkSize) }, (_, i) => input.subarray(i * chunkSize, (i + 1) * chunkSize));
  const out: Buffer[] = [];
  for await (const chunk of Readable.from(chunks).pipe(new PatchStream(patches))) out.push(chunk as Buffer);
  return Buffer.concat(out);
}

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('PatchStream', () => {
  const input = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz');
  const patches = [
    { offset: 2, length: 3, data: b64('XYZ') },
    { offset: 10, length: 4, data: b64('--') },
    { offset: 20, length: 2, data: b64('LONGER') },
    { offset: 35, length: 1, data: b64('!') },
  ];
  const expected = '01XYZ56789--efghijLONGERmnopqrstuvwxy!';

  it.each([1, 2, 3, 7, 100])('replaces ranges whatever the chunk size (%i)', async (size) => {
    expect((await run(input, size, patches)).toString()).toBe(expected);
  });

  it('fails when the input ends before a patched range', async () => {
    await expect(run(input.subarray(0, 30), 8, patches)).rejects.toThrow(/ended before/);
  });
});
