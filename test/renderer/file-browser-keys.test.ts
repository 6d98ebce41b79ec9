import { describe, expect, it } from 'vitest';
import { fileListAction } from '../../src/renderer/lib/file-browser-keys';

const key = (k: string, mods: Partial<{ altKey: boolean; ctrlKey: boolean; metaKey: boolean }> = {}) => ({ key: k, altKey: false, ctrlKey: false, metaKey: false, ...mods });

describe('the file browser list keys', () => {
  it('moves within the list and stops at its ends', () => {
    expect(fileListAction(key('ArrowDown'), 0, 3)).toEqual({ type: 'move', index: 1 });
    expect(fileListAction(key('ArrowDown'), 2, 3)).toEqual({ type: 'move', index: 2 });
    expect(fileListAction(key('ArrowUp'), 0, 3)).toEqual({ type: 'move', index: 0 });
    expect(fileListAction(key('End'), 0, 3)).toEqual({ type: 'move', index: 2 });
    expect(fileListAction(key('Home'), 2, 3)).toEqual({ type: 'move', index: 0 });
    expect(fileListAction(key('PageDown'), 0, 30)).toEqual({ type: 'move', index: 10 });
    expect(fileListAction(key('ArrowDown'), 0, 0)).toBeNull();
  });

  it('Enter opens, Space chooses, Backspace and Alt+Up go up; other keys are not the list\'s', () => {
    expect(fileListAction(key('Enter'), 1, 3)).toEqual({ type: 'open' });
    expect(fileListAction(key(' '), 1, 3)).toEqual({ type: 'toggle' });
    expect(fileListAction(key('Backspace'), 1, 3)).toEqual({ type: 'up' });
    expect(fileListAction(key('ArrowUp', { altKey: true }), 1, 3)).toEqual({ type: 'up' });
    expect(fileListAction(key('Backspace'), 0, 0)).toEqual({ type: 'up' });
    expect(fileListAction(key('Enter'), 0, 0)).toBeNull();
    expect(fileListAction(key('a', { ctrlKey: true }), 0, 3)).toBeNull();
    expect(fileListAction(key('Tab'), 0, 3)).toBeNull();
    expect(fileListAction(key('Escape'), 0, 3)).toBeNull();
  });
});
