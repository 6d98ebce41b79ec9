import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { REQUEST_BODY_HASH_HEADER, signWorkerRequest, verifiedBody, verifyWorkerRequest } from '../../../src/render-node/distributed/request-signature';
import { newWorkerSecret, workerKeys } from '../../../src/render-node/worker-access/worker-secret';

const keys = workerKeys(newWorkerSecret());
const path = '/storage/render/0b5f0c7e-1111-4222-8333-944455556666/chunks/0/frames/1/f_0001.png?expires=1&sig=x';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function read(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe("a worker's request signature covers its body", () => {
  const frame = Buffer.from('the frame as rendered');
  const now = new Date();

  it('is valid for the body it was made for, and for no other claimed body', () => {
    const headers = signWorkerRequest(keys, 'PUT', path, now, sha256(frame));
    expect(headers[REQUEST_BODY_HASH_HEADER]).toBe(sha256(frame));
    expect(verifyWorkerRequest(keys, 'PUT', path, headers, now)).toBe('ok');
    expect(verifyWorkerRequest(keys, 'PUT', path, { ...headers, [REQUEST_BODY_HASH_HEADER]: sha256(Buffer.from('other')) }, now)).toBe('invalid');
    const { [REQUEST_BODY_HASH_HEADER]: _dropped, ...withoutHash } = headers;
    expect(verifyWorkerRequest(keys, 'PUT', path, withoutHash, now), 'the hash header dropped').toBe('invalid');
    expect(verifyWorkerRequest(keys, 'PUT', path, { ...headers, [REQUEST_BODY_HASH_HEADER]: 'not-hex' }, now)).toBe('invalid');
  });

  it('passes the signed body through, and fails a body changed on the way at its end', async () => {
    const incoming = (bytes: Buffer) => Readable.from([bytes]) as unknown as IncomingMessage;
    expect((await read(verifiedBody(incoming(frame), sha256(frame)))).equals(frame)).toBe(true);
    await expect(read(verifiedBody(incoming(Buffer.from('the frame, swapped')), sha256(frame)))).rejects.toMatchObject({ statusCode: 403, code: 'worker_body_mismatch' });
  });
});
