import { describe, expect, it } from 'vitest';
import { UrlSigner } from '../../../src/render-node/http/signing';
import { buildChunkData, chunkFailureReason } from '../../../src/render-node/distributed/chunk-jobs';
import { CHUNK_SIGNING_KEY, chunkDataSchema, chunkJobId, chunkPathPrefix, parseChunkJobId } from '../../../src/render-node/distributed/protocol';
import type { RenderPlan } from '../../../src/render-node/plan/render-plan';
import { verifyChunk } from '../../../src/render-node/distributed/chunk-signature';
import { newWorkerSecret, workerKeys } from '../../../src/render-node/worker-access/worker-secret';

const jobId = '1f2e3d4c-5b6a-4798-8a9b-0c1d2e3f4a5b';
const plan: RenderPlan = {
  frames: [1, 2, 3, 4],
  outputDir: '/node/jobs/x/frames',
  fileNamePattern: 'shot_####',
  outputFormat: 'PNG',
  outputSettings: { colorMode: 'RGBA', colorDepth: '8', compression: 15 },
  engine: 'CYCLES',
  samples: 64,
  resolution: [1920, 1080],
  resolutionPercentage: 50,
  camera: 'Camera',
  viewLayer: null,
  denoise: { enabled: false, denoiser: null },
  device: 'CPU',
  useTiling: null,
  tileSize: null,
  fps: 24,
  colorManagement: { viewTransform: null, look: null },
  compositeOutputDir: '/node/jobs/x/composite',
  previewPath: '/node/jobs/x/package/preview.png',
  previewMaxSize: 512,
};

describe('chunk jobs', () => {
  it('names a chunk job by job, index and generation, and reads such ids back', () => {
    expect(parseChunkJobId(chunkJobId(jobId, 12, 1))).toEqual({ jobId, index: 12, generation: 1 });
    expect(parseChunkJobId('12')).toBeNull();
  });

  it('builds chunk data workers can read, with the node\'s folders left out and URLs signed for the chunk only', () => {
    const signer = new UrlSigner(Buffer.from('a test secret of reasonable length, 32+ bytes'));
    const keys = workerKeys(newWorkerSecret());
    const expiresAt = new Date(Date.now() + 3600_000);
    const data = buildChunkData({
      workspaceId: 'ws',
      jobId,
      index: 1,
      generation: 2,
      frames: [3, 4],
      blender: '4.2.3',
      requires: ['gpu', 'big-ram'],
      scene: { sha256: 'a'.repeat(64), size: 10, kind: 'blend', path: 'shot.blend' },
      plan,
      signer,
      keys,
      expiresAt,
    });
    expect(verifyChunk(keys, JSON.parse(JSON.stringify(data)), chunkJobId(jobId, 1, 2))).toEqual({ ok: true, chunk: data });
    expect(chunkDataSchema.parse(data)).toEqual(data);
    expect(JSON.stringify(data)).not.toContain('/node/jobs');
    expect(data.requires).toEqual(['gpu', 'big-ram']);
    expect(data.plan).toMatchObject({ samples: 64, resolutionPercentage: 50, camera: 'Camera', outputSettings: { colorMode: 'RGBA', compression: 15, quality: null } });
    const q = (qs: string) => Object.fromEntries(new URLSearchParams(qs));
    expect(signer.verify('GET', chunkPathPrefix(jobId, 1), q(data.get))).toEqual({ status: 'ok', keyId: CHUNK_SIGNING_KEY });
    expect(signer.verify('PUT', chunkPathPrefix(jobId, 1), q(data.put))).toEqual({ status: 'ok', keyId: CHUNK_SIGNING_KEY });
    expect(signer.verify('PUT', chunkPathPrefix(jobId, 0), q(data.put)).status).toBe('invalid');
    expect(signer.verify('PUT', chunkPathPrefix(jobId, 1), q(data.get)).status).toBe('invalid');
  });

  it('explains a failed chunk by its frames, its workers and the last error', () => {
    const reason = chunkFailureReason({
      frames: [5, 6, 7, 8],
      lastError: 'Worker "render-02" could not render frames 5-8: Blender stopped (exit code 1)',
      attempts: 3,
      failures: { 'render-02': 1, 'render-01': 2 },
    });
    expect(reason).toEqual({
      name: 'ChunkFailed',
      type: 'render',
      message: 'Frames 5-8 failed 3 times (render-01 twice, render-02 once). Last error: Worker "render-02" could not render frames 5-8: Blender stopped (exit code 1)',
      frames: [5, 6, 7, 8],
      workers: ['render-01', 'render-02'],
    });
  });

  it('says when workers kept vanishing mid-chunk', () => {
    const reason = chunkFailureReason({ frames: [1], lastError: 'job stalled more than allowable limit', attempts: 1, failures: {} });
    expect(reason.message).toBe('Frames 1 were left unfinished again and again: their workers stopped or lost Redis mid-render.');
  });
});
