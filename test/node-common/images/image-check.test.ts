import { describe, expect, it } from 'vitest';
import { bufferBytes } from '../../../src/node-common/images/random-access-bytes';
import { checkImage } from '../../../src/node-common/images/image-check';

const check = (bytes: Buffer, name: string) => checkImage(bufferBytes(bytes), name);

describe('checkImage', () => {
  it('finds an empty file incomplete', async () => {
    expect(await check(Buffer.alloc(0), 'a.png')).toEqual({ status: 'incomplete', format: null, reason: 'the file is empty' });
  });

  it('finds an image file without its header incomplete, and a file of unknown kind unknown', async () => {
    expect(await check(Buffer.from('not an image'), 'frame_0001.exr')).toMatchObject({ status: 'incomplete', reason: 'its header is missing or damaged' });
    expect(await check(Buffer.from('not an image'), 'frame_0001.xyz')).toEqual({ status: 'unknown' });
  });

  it('leaves BigTIFF, whose structure it does not read, unknown', async () => {
    expect(await check(Buffer.from([0x49, 0x49, 0x2b, 0x00, 8, 0, 0, 0]), 'big.tif')).toEqual({ status: 'unknown' });
  });

  it('checks a JPEG by its end marker', async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]);
    expect(await check(jpeg, 'a.jpg')).toEqual({ status: 'complete', format: 'JPEG' });
    expect(await check(jpeg.subarray(0, 7), 'a.jpg')).toMatchObject({ status: 'incomplete', format: 'JPEG' });
  });
});
