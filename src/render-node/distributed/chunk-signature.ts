import { createHmac, timingSafeEqual } from 'node:crypto';
import { chunkDataSchema, chunkJobId, TAMPERED_MARK, type ChunkData } from './protocol';
import type { WorkerKeys } from '../worker-access';

/** A chunk's data before the node signs it. */
export type UnsignedChunk = Omit<ChunkData, 'sig'>;

/** JSON with every object's keys in order, so the node and its workers sign the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function mac(keys: WorkerKeys, fields: unknown): string {
  return createHmac('sha256', keys.chunk).update(canonicalJson(fields)).digest('hex');
}

/** The chunk with the node's signature over all of it: job, index, generation, frames, scene, plan and URLs. */
export function signChunk(keys: WorkerKeys, chunk: UnsignedChunk): ChunkData {
  const plain = JSON.parse(JSON.stringify(chunk)) as UnsignedChunk;
  return { ...plain, sig: mac(keys, plain) };
}

/** A chunk a worker may act on, or why it must not. */
export type ChunkVerdict = { ok: true; chunk: ChunkData } | { ok: false; reason: string };

/**
 * Check a chunk as it came out of Redis before anything is done with it: its signature must be the
 * node's over exactly these fields (nothing added, changed or left out), and its queue entry must be
 * the one the node made for that job, index and generation.
 */
export function verifyChunk(keys: WorkerKeys, data: unknown, queueId: string | undefined): ChunkVerdict {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return { ok: false, reason: 'it holds no chunk' };
  const { sig, ...fields } = data as Record<string, unknown>;
  if (typeof sig !== 'string' || !/^[0-9a-f]{64}$/.test(sig)) return { ok: false, reason: 'it is not signed' };
  if (!timingSafeEqual(Buffer.from(mac(keys, fields), 'hex'), Buffer.from(sig, 'hex'))) {
    return { ok: false, reason: 'its signature does not match its data (altered, or signed with another worker secret)' };
  }
  const parsed = chunkDataSchema.safeParse(data);
  if (!parsed.success) return { ok: false, reason: `its data is not a chunk of this version (${parsed.error.issues[0]?.message ?? 'bad data'})` };
  const chunk = parsed.data;
  if (queueId !== chunkJobId(chunk.jobId, chunk.index, chunk.generation)) return { ok: false, reason: 'it was moved to another queue entry' };
  return { ok: true, chunk };
}

/** The failure reason of a chunk a worker refused, naming the tampering (the node recognises it by {@link TAMPERED_MARK}). */
export function tamperedReason(worker: string, queueId: string | undefined, why: string): string {
  return `Worker "${worker}" ${TAMPERED_MARK} chunk ${queueId ?? '(no id)'}: ${why}. Someone with access to Redis may have changed it; the node puts it back signed anew.`;
}
