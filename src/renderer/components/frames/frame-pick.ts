/** Frames picked in the frame strip: whether picking is on, the frames, and the last one clicked (a range starts there). */
export interface FramePick {
  on: boolean;
  frames: ReadonlySet<number>;
  anchor: number | null;
}

export const NO_PICK: FramePick = { on: false, frames: new Set(), anchor: null };

/**
 * The pick after a click on `frame`: a Shift-click adds every listed frame from the last one clicked to
 * it, any other click picks or unpicks that frame. Picking turns on with the first click.
 */
export function nextPick(pick: FramePick, listed: readonly number[], frame: number, how: { range: boolean }): FramePick {
  const frames = new Set(pick.frames);
  const from = pick.anchor === null ? -1 : listed.indexOf(pick.anchor);
  const to = listed.indexOf(frame);
  if (how.range && from >= 0 && to >= 0) {
    for (const f of listed.slice(Math.min(from, to), Math.max(from, to) + 1)) frames.add(f);
  } else if (frames.has(frame)) frames.delete(frame);
  else frames.add(frame);
  return { on: true, frames, anchor: frame };
}
