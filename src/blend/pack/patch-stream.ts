import { Transform, type TransformCallback } from 'node:stream';
import type { BlendPatch } from './rewrite-paths';

/**
 * A stream that replaces byte ranges of what flows through it: each patch puts its data where its
 * `length` bytes were (patches sorted by offset, not overlapping; data may be longer or shorter).
 * Fails when the input ends before the last patched range.
 */
export class PatchStream extends Transform {
  private position = 0;
  private next = 0;
  private skip = 0;
  private readonly patches: { offset: number; length: number; data: Buffer }[];

  constructor(patches: readonly BlendPatch[]) {
    super();
    this.patches = patches.map((p) => ({ offset: p.offset, length: p.length, data: Buffer.from(p.data, 'base64') }));
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - at);
        at += n;
        this.position += n;
        this.skip -= n;
        continue;
      }
      const patch = this.patches[this.next];
      const end = this.position + chunk.length - at;
      if (!patch || patch.offset >= end) {
        this.push(at === 0 ? chunk : chunk.subarray(at));
        this.position = end;
        break;
      }
      if (patch.offset > this.position) {
        const n = patch.offset - this.position;
        this.push(chunk.subarray(at, at + n));
        at += n;
        this.position += n;
        continue;
      }
      this.push(patch.data);
      this.skip = patch.length;
      this.next++;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.next < this.patches.length || this.skip > 0) done(new Error('the file ended before all of its paths were rewritten'));
    else done();
  }
}
