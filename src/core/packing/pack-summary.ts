import { posix } from 'node:path';
import { z } from 'zod';
import { type BundlePlan, type PlannedDependency, needsPacking } from '../../blend/pack';
import { KIND_LABELS, isMissing } from '../../blend/trace';
import { privateFileSchema, type PrivateFile } from './private-files';

/** Why a file the scene uses does not travel (`left-out`: held at the packing boundary, see holdPrivateFiles). */
export const MISSING_REASONS = ['not-found', 'other-system', 'not-a-file', 'unreadable', 'left-out'] as const;
export type MissingReason = (typeof MISSING_REASONS)[number];

/**
 * One path a .blend of the scene stores, where the farm finds it and where it is on this disk: the
 * link between what the node reports (paths inside the bundle) and what the artist knows.
 */
export const farmPlaceSchema = z.object({
  /** What uses it, in words ("image", "linked library"). */
  kind: z.string(),
  /** Name of the data-block that uses it. */
  owner: z.string(),
  /** The path as the artist's .blend stores it. */
  stored: z.string(),
  /** Where Blender on the farm looks for it, relative to the top of the bundle; null when outside it. */
  inBundle: z.string().nullable(),
  /** The artist's path: where it is (or was looked for) on this disk, else the path as stored. */
  path: z.string(),
  /** A numbered sequence or UDIM tiles: the farm may name one frame or tile of it. */
  numbered: z.boolean(),
  /** It reaches the farm (in the bundle, or packed inside its .blend). */
  travels: z.boolean(),
  /** Why it is missing on the farm, when the render needs it and it does not travel. */
  missing: z.enum(MISSING_REASONS).nullable(),
  /** Frames or tiles of a numbered place that travels which are not on this disk (the artist's paths). */
  absent: z.array(z.string()).optional(),
});
export type FarmPlace = z.infer<typeof farmPlaceSchema>;

/** What tracing a scene found, as the journal keeps it: what travels, what is missing, and the fingerprint that fixes the bundle. */
export const packSummarySchema = z.object({
  /** The plan's fingerprint: equal fingerprints give the same bundle bytes. */
  fingerprint: z.string(),
  /** Whether a bundle is sent (false: the .blend alone holds everything that can travel). */
  bundled: z.boolean(),
  /** Files that travel, the scene included, and their bytes before compression. */
  files: z.number().int().nonnegative(),
  bytes: z.number().nonnegative(),
  places: z.array(farmPlaceSchema),
  /** Files held at the packing boundary (outside the project, secret, hard-linked): left out, or sent because the artist allowed them (absent: none). */
  privateFiles: z.array(privateFileSchema).optional(),
});
export type PackSummary = z.infer<typeof packSummarySchema>;

const REASONS: Partial<Record<PlannedDependency['status'], MissingReason>> = {
  missing: 'not-found',
  'other-system': 'other-system',
  'not-a-file': 'not-a-file',
  unreadable: 'unreadable',
};

/** The journal's summary of a bundle plan (and of its private files, see holdPrivateFiles). */
export function summarizePlan(plan: BundlePlan, privateFiles: readonly PrivateFile[] = []): PackSummary {
  const entryOf = new Map(plan.blends.map((b) => [b.path, b.entry]));
  const places = plan.dependencies
    .filter((d) => d.required && d.status !== 'empty')
    .map((dep): FarmPlace => {
      const travels = (dep.status === 'found' && !dep.leftOut) || dep.status === 'packed';
      return {
        kind: KIND_LABELS[dep.kind],
        owner: dep.owner,
        stored: dep.stored,
        inBundle: dep.status === 'found' ? dep.bundlePath : whereFarmLooks(dep.stored, entryOf.get(dep.holder) ?? plan.sceneEntry),
        path: dep.resolved ?? dep.stored,
        numbered: dep.shape === 'sequence' || dep.shape === 'udim',
        travels,
        missing: dep.leftOut || dep.status === 'outside' ? 'left-out' : !travels && isMissing(dep) ? (REASONS[dep.status] ?? null) : null,
        ...(travels && dep.absent && dep.absent.length > 0 ? { absent: dep.absent } : {}),
      };
    });
  return { fingerprint: plan.fingerprint, bundled: needsPacking(plan), files: plan.entries.length, bytes: plan.totalBytes, places, ...(privateFiles.length > 0 ? { privateFiles: [...privateFiles] } : {}) };
}

/**
 * The places of a summary that are missing on the farm, or that travel with frames or tiles missing.
 * Files held at the packing boundary are not among them: they are told apart (privateFiles).
 */
export function missingPlaces(summary: PackSummary | null): FarmPlace[] {
  return summary?.places.filter((p) => (p.missing !== null && p.missing !== 'left-out') || (p.absent?.length ?? 0) > 0) ?? [];
}

/**
 * Where Blender on the farm resolves a path left unchanged in the copy of a .blend at bundle entry
 * `holderEntry`: `//` paths against that entry's folder (null when they climb out of the bundle),
 * absolute paths nowhere inside it.
 */
function whereFarmLooks(stored: string, holderEntry: string): string | null {
  if (!stored.startsWith('//')) return null;
  const joined = posix.normalize(posix.join(posix.dirname(holderEntry), stored.slice(2).replace(/\\/g, '/')));
  return joined === '..' || joined.startsWith('../') ? null : joined.replace(/\/+$/, '');
}
