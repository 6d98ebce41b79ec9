import { useEffect } from 'react';

/** While `playing`, calls `advance` at `fps` times a second. */
export function usePlayback(playing: boolean, fps: number, advance: () => void): void {
  useEffect(() => {
    if (!playing) return;
    const timer = setInterval(advance, 1000 / fps);
    return () => clearInterval(timer);
  });
}
