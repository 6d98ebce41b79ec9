/**
 * The order a job's frames render in: `spread` covers the shot early (first, last, middle, then the
 * gaps' midpoints); `sequential` in frame order. Kept free of zod, so the command line can read
 * `--order` before it loads anything heavy.
 */
export const FRAME_ORDERS = ['spread', 'sequential'] as const;
export type FrameOrder = (typeof FRAME_ORDERS)[number];
