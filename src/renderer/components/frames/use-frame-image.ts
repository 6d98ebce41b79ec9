import { useEffect, useState, type RefObject } from 'react';
import type { FrameView } from '../../../shared/contract';
import { imageKey, type ImageState, useFramesStore } from '../../stores';

/**
 * A done frame's picture, asked of the host once the element `watch` points at comes into view (or at
 * once without `watch`); undefined until asked. With `watch` it is the frame's tile (the server's small
 * preview when there is one), without it the frame itself.
 */
export function useFrameImage(jobId: string, frame: FrameView | null, watch?: RefObject<Element | null>): ImageState | undefined {
  const [visible, setVisible] = useState(!watch);
  const thumbnail = watch !== undefined;
  const key = frame ? imageKey(jobId, frame, thumbnail) : null;
  const state = useFramesStore((s) => (key ? s.images[key] : undefined));
  useEffect(() => {
    const element = watch?.current;
    if (!element || visible) return;
    if (typeof IntersectionObserver === 'undefined') {
      setVisible(true);
      return;
    }
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setVisible(true);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [watch, visible, frame?.state]);
  useEffect(() => {
    if (visible && frame && frame.state === 'done' && (frame.viewable || frame.hasPreview)) void useFramesStore.getState().image(jobId, frame, thumbnail);
  }, [visible, jobId, frame, key, thumbnail]);
  return state;
}
