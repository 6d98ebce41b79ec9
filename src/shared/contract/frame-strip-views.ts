import type { JobStatus } from '../api';

/** One frame of a job, as the frame strip shows it. */
export interface FrameView {
  frame: number;
  /** `done`: a rendered file exists (on the server or on disk); `pending`: still to come; `missing`: the job ended without it. */
  state: 'done' | 'pending' | 'missing';
  /** The file's name as the artist gets it, when there is one. */
  fileName: string | null;
  /** Whether the file is in the job's folder on this computer. */
  onDisk: boolean;
  /** Whether a browser can show the file (PNG, JPEG, WebP, BMP, GIF); EXR and TIFF cannot. */
  viewable: boolean;
  /** Whether the server made a small preview of this frame (shown for files a browser cannot show). */
  hasPreview: boolean;
}

/** The frames of a job and what the viewer needs to play them. */
export interface FrameStripView {
  jobId: string;
  status: JobStatus;
  frames: FrameView[];
  /** Frames left out of `frames` because the job has more than the strip lists. */
  moreFrames: number;
  /** Frames per second to play at (the scene's or the render's), when known. */
  fps: number | null;
  /** The output format's name as an artist reads it ("OpenEXR"), when known. */
  formatName: string | null;
  /** Whether the server has a preview image of the job (the last rendered frame while rendering). */
  hasPreview: boolean;
  /** Which render worker rendered which frames ("render-01 frames 1-4, render-02 frames 5-8"), when the farm says. */
  renderedBy?: string | null;
}

/** A frame's picture: a data URL to show, or why there is none. */
export type FrameImage =
  | { ok: true; dataUrl: string; /** The server's small preview, not the frame itself. */ preview: boolean }
  | { ok: false; reason: 'not-viewable' | 'not-available' | 'too-large' };
