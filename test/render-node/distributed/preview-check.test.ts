import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewProblem } from '../../../src/render-node/distributed/preview-check';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rd-preview-check-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
}

/** A grey PNG of `width` x `height` pixels (its CRCs are not checked by the node). */
function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

async function file(name: string, bytes: Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

describe('a frame preview sent by a render worker', () => {
  it('is kept when it is a whole PNG of preview size', async () => {
    expect(await previewProblem(await file('ok.png', png(512, 288)))).toBeNull();
  });

  it('is refused when cut short, too large, or not a PNG', async () => {
    const whole = png(64, 36);
    expect(await previewProblem(await file('cut.png', whole.subarray(0, whole.length - 20)))).toMatch(/^it is not a whole image/);
    expect(await previewProblem(await file('big.png', png(4000, 2)))).toBe('it is 4000 x 2 pixels, more than a preview');
    expect(await previewProblem(await file('text.bin', Buffer.from('hello, not an image')))).toBe('it is not a PNG image');
    expect(await previewProblem(await file('jpeg.png', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0xff, 0xd9])))).toMatch(/JPEG file, not PNG|not a whole image/);
  });
});
