import type { BlendFile, StructView } from '../reader';
import { sure, UnsureError, type StoredSequencer, type StoredStrip } from './stored-scene';

/** RenderData.scemode: post-processing runs the video sequencer (DNA_scene_types.h). */
const R_DOSEQ = 1 << 0;
/** Sequence.flag: the strip is muted. */
const SEQ_MUTE = 1 << 5;
/** SeqTimelineChannel.flag: the channel is muted. */
const SEQ_CHANNEL_MUTE = 1 << 1;

/**
 * The video sequencer of `scene` as stored: whether post-processing runs it (`scemode`, the scene's
 * RenderData mode) and the strips at the top of its edit, each with its type and whether it is muted,
 * itself or through its channel (Blender's `render_is_muted`).
 */
export async function storedSequencer(file: BlendFile, scene: StructView, scemode: number): Promise<StoredSequencer> {
  const enabled = (scemode & R_DOSEQ) !== 0;
  const editing = await file.follow(scene, 'ed');
  if (!editing) return { enabled, strips: [] };
  if (!editing.has('seqbase')) throw new UnsureError('the sequencer cannot be read');
  const channels = editing.has('channels') ? await file.list(editing, 'channels') : [];
  const strips: StoredStrip[] = [];
  for (const strip of await file.list(editing, 'seqbase')) {
    const flag = sure(strip.number('flag'), 'a strip flag');
    const channel = sure(strip.number('channel'), 'the channel of a strip');
    const channelFlag = channels[channel]?.number('flag') ?? 0;
    strips.push({ type: sure(strip.number('type'), 'a strip type'), muted: (flag & SEQ_MUTE) !== 0 || (channelFlag & SEQ_CHANNEL_MUTE) !== 0 });
  }
  return { enabled, strips };
}

/**
 * Sequence.type from which strips are effects (colour, text, adjustment layers, transitions, blurs...),
 * which make their picture without reading a file; lower types read images, movies, sounds, clips or
 * masks, hold other strips (meta) or render other scenes.
 */
const SEQ_TYPE_EFFECT = 8;

/** Whether a strip reads anything beyond the scene's own settings: a file, a clip, a mask, other strips or another scene. */
export function stripReadsMore(strip: StoredStrip): boolean {
  return strip.type < SEQ_TYPE_EFFECT;
}
