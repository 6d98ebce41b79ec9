import type { AnalysisWarning, RenderConfig, SceneAnalysis } from '../api';
import type { SerializedError } from '../client-error';
import type { EstimateBasis, EstimateModel, RenderShape } from '../render';

/**
 * Where a submission stands, in the words of the UI. `packing`: reading which files the scene uses and
 * writing its bundle; `missing-files`: held before anything is sent, because files the scene uses are
 * missing, until the artist continues without them (`submissions.continue`) or cancels
 * (`submissions.discard`).
 */
export const SUBMISSION_PHASES = ['packing', 'missing-files', 'uploading', 'choose-scene', 'validating', 'review', 'starting', 'rendering', 'downloading', 'done', 'failed', 'canceled', 'discarded'] as const;
export type SubmissionPhase = (typeof SUBMISSION_PHASES)[number];

/** One file on its way to the farm. */
export interface SubmissionView {
  id: string;
  fileName: string;
  size: number;
  phase: SubmissionPhase;
  jobId: string | null;
  createdAt: string;
  /** Why it stopped, when it did. */
  error: SerializedError | null;
  /** Whether "Retry" can resume it from its last step. */
  canRetry: boolean;
  /**
   * The scenes of a zip that holds several, while none is chosen (`submissions.chooseScene`): asked
   * during the upload, and the submission waits after it (phase `choose-scene`) until one is. Null
   * when there is nothing to choose.
   */
  scenes: string[] | null;
  /** What travels with a .blend and what is missing, known before upload (null until known, and for a file sent as it is). */
  packing: PackingView | null;
  /**
   * Only the file's bytes reached Renderdrop (a scene dropped in the browser), not the folder around it:
   * files it uses by a relative path could not be checked.
   */
  bytesOnly?: boolean;
}

/** What travels with a dropped scene, and what the farm will not have. */
export interface PackingView {
  /** Files that travel, the scene included (1: the scene needs no other file), and their size before compression. */
  files: number;
  bytes: number;
  /** Files the scene uses that will not reach the farm, by the artist's path. */
  missing: MissingFileView[];
  /**
   * Files held at the edge of the project: outside it, in a secret place (keys, passwords, a browser's
   * profile, system files) or with other hard links. They travel only when the artist sends them
   * anyway (`allowed`), and are left out otherwise.
   */
  privateFiles?: PrivateFileView[];
  /** The project's folder: the scene's folder, or the one chosen for the scene. */
  project?: string;
  /**
   * A folder around the scene's folder and the held folders outside it that could be the project (a
   * show's folder with its shared assets), offered as a choice that is remembered for the scene;
   * absent when there is none (it would be the home folder, the disk's root or a secret place).
   */
  suggestedProject?: string;
}

/** A file (or a folder that was not read) held at the edge of the project. */
export interface PrivateFileView {
  /** Where it is on the artist's disk. */
  path: string;
  /** What uses it, in words, and the name of that data-block. */
  kind: string;
  owner: string;
  /** Why it is held, in a few words ("outside the project, in .ssh, a folder of keys, ..."). */
  why: string;
  /** It travels with the scene (the artist chose to send it). */
  allowed: boolean;
  /** A folder outside the project that was not read at all (a cache folder, a sequence's folder). */
  folder?: boolean;
}

/** A file a scene uses that will not reach the farm. */
export interface MissingFileView {
  /** What uses it, in words ("image", "linked library") and the name of that data-block. */
  kind: string;
  owner: string;
  /** Where it is, or was looked for, on the artist's disk (as the scene stores it when that is unknown). */
  path: string;
  /** Why it will be missing, in a few words ("not on this computer"). */
  reason: string;
  /** It could not be looked for (the scene came without its folder): it may well be on the disk. */
  unchecked?: boolean;
}

/** The files a scene uses, as the review tells them: found on this computer, truly gone, or not checked. */
export interface SceneFilesView {
  /** Files found on this computer that travel with the scene (the scene not counted). */
  found: number;
  /** Files looked for on this computer and not there. */
  gone: number;
  /** Files that could not be looked for: only the scene's bytes reached Renderdrop. */
  unchecked: number;
  /** Whether only the scene's bytes reached Renderdrop (a scene dropped in the browser). */
  bytesOnly: boolean;
}

/** Progress of packing a scene, of an upload or of a download. */
export interface TransferView {
  /** `pack:<submission id>`, `upload:<submission id>` or `download:<job id>`. */
  id: string;
  kind: 'pack' | 'upload' | 'download';
  submissionId: string | null;
  jobId: string | null;
  bytes: number;
  total: number | null;
  /** Bytes per second, smoothed. */
  rate: number;
  etaSeconds: number | null;
  done: boolean;
  /** Bytes of the file the farm already had, not sent (`total` then counts only the bytes to send). */
  reused?: number;
}

/** What validation found, and the settings the render will start from. */
export interface ReviewSheet {
  submissionId: string;
  jobId: string;
  fileName: string;
  analysis: SceneAnalysis | null;
  /**
   * Warnings in plain words (missing files by path, newer Blender, denoiser switched off, ...). A packed
   * scene's missing files are those truly missing, by the artist's path (never a path inside the bundle
   * or on the server).
   */
  warnings: AnalysisWarning[];
  /** The settings to start from: the last ones used for this scene, else the detected ones. */
  defaults: RenderConfig;
  /** Whether `defaults` come from the last render of this scene. */
  fromLastTime: boolean;
  /** Whether `defaults` are the settings of the job sent again ("Submit again"). */
  fromEarlierJob?: boolean;
  /** The files the scene uses, when Renderdrop traced them before sending (absent for a zip). */
  files?: SceneFilesView;
  /** Earlier renders of the same scene on this profile, to estimate the render at the settings chosen; null without any. */
  estimateFrom: EstimateBasis | null;
  /**
   * A Renderdrop node's estimate of the render at the scene's own settings (`shape`), from its sample
   * render, with what it measured (`model`, from a node that says it) to price the settings typed in
   * as the node will; absent until the node has one (the review asks again) or on another farm.
   */
  nodeEstimate?: { seconds: number; low: number; high: number; shape: RenderShape; model?: EstimateModel };
  /**
   * The Blender versions the render may use, when the farm (a Renderdrop node listing them) has more
   * than one that can open the scene; absent otherwise (the farm's choice is then the only one).
   */
  blender?: BlenderChoiceView;
  /** Present when the farm is a Renderdrop node, which takes a priority and the worker tags a job needs. */
  studio?: StudioChoiceView;
}

/** What a Renderdrop node offers the review beyond the API: a priority, and worker tags to require. */
export interface StudioChoiceView {
  /** The tags its render workers (or the node itself) carry now, to pick from; a job may require others and wait for them. */
  workerTags: string[];
  /** Who renders there: render workers, or the node with its own Blender (then the tags are the node's). */
  renders?: 'workers' | 'node';
}

/** The Blender versions of the farm an artist may render a scene with. */
export interface BlenderChoiceView {
  /** The version the farm chooses when the artist does not: the lowest at or above the scene's. */
  farmChoice: string;
  /** Every version of the farm at or above the scene's, oldest first (the farm's choice among them). */
  versions: string[];
}

/** What happened to one dropped or picked file. */
export type SubmitFileResult =
  | { ok: true; name: string; submissionId: string }
  | { ok: false; name: string; error: SerializedError };

/** In-app notification. */
export interface NotificationView {
  id: string;
  level: 'info' | 'success' | 'error';
  title: string;
  message: string;
  jobId: string | null;
  at: string;
}
