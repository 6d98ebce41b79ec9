import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ViewerBar, type ViewerBarProps } from '../../src/renderer/components/frames/viewer-bar';

const bar = (playing: boolean): string => {
  const props: ViewerBarProps = { frame: 3, position: 3, count: 24, rendering: false, fps: 24, playing, actual: false, go: () => undefined, setPlaying: () => undefined, setActual: () => undefined, close: () => undefined };
  return renderToStaticMarkup(createElement(ViewerBar, props));
};

/** The play button's markup. */
const playButton = (html: string): string => /<button[^>]*class="viewer-play"[^>]*>.*?<\/button>/.exec(html)?.[0] ?? '';

describe('the viewer bar', () => {
  it('keeps Play and Pause in one button of one width, so the arrows beside it do not move', () => {
    for (const playing of [false, true]) {
      const button = playButton(bar(playing));
      expect(button).toContain('Pause');
      expect(button).toContain('Play at 24 fps');
    }
    expect(playButton(bar(true))).toMatch(/<span>Pause<\/span><span class="viewer-play-hidden">Play at 24 fps<\/span>/);
    expect(playButton(bar(false))).toMatch(/<span class="viewer-play-hidden">Pause<\/span><span>Play at 24 fps<\/span>/);
  });
});
