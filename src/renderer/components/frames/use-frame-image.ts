import { useEffect, useState, type RefObject } from 'react';
import type { FrameView } from '../../../shared/contract';
import { imageKey, useFramesStore, type ImageState } from '../../stores/frames-store';

/**
 * A done frame's picture, asked of the host once the element `watch` points at comes into view (or at
 * once without `watch`); undefined until asked.
 */
export function useFrameImage(jobId: string, frame: FrameView | null, watch?: RefObject<Element | null>): ImageState | undefined {
  const [visible, setVisible] = useState(!watch);
  const key = frame ? imageKey(jobId, frame) : null;
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
    if (visible && frame && frame.state === 'done' && (frame.viewable || frame.hasPreview)) void useFramesStore.getState().image(jobId, frame);
  }, [visible, jobId, frame, key]);
  return state;
}
