import { describe, expect, it } from 'vitest';
import { closeAction, quitQuestion } from '../../../src/main/window/close-policy';

describe('closing the window', () => {
  const base = { quitting: false, keepRunningInTray: true, workActive: true, platform: 'linux' as NodeJS.Platform };

  it('hides to the tray while work is active and the setting allows it', () => {
    expect(closeAction(base)).toBe('hide');
    expect(closeAction({ ...base, platform: 'win32' })).toBe('hide');
  });

  it('closes (and quits) when idle or when the setting is off', () => {
    expect(closeAction({ ...base, workActive: false })).toBe('close');
    expect(closeAction({ ...base, keepRunningInTray: false })).toBe('close');
  });

  it('always closes when the app quits; on macOS closing never quits', () => {
    expect(closeAction({ ...base, quitting: true })).toBe('close');
    expect(closeAction({ ...base, platform: 'darwin', workActive: false, keepRunningInTray: false })).toBe('hide');
  });

  it('asks before quitting only with uploads in flight, the safe answer first', () => {
    expect(quitQuestion(0)).toBeNull();
    expect(quitQuestion(1)?.message).toBe('An upload is still in progress. Quit Renderdrop anyway?');
    const many = quitQuestion(3)!;
    expect(many.message).toMatch(/^3 uploads are/);
    expect(many.buttons).toEqual(['Keep running', 'Quit anyway']);
  });
});
