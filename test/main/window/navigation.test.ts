import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { Session, WebContents } from 'electron';
import { APP_ORIGIN, isAppUrl } from '../../../src/main/window/app-origin';
import { contentSecurityPolicy } from '../../../src/shared/security/content-security-policy';
import { decideNavigation } from '../../../src/main/window/navigation-policy';
import { denyPermissions, guardWebContents } from '../../../src/main/window/web-guards';

vi.mock('electron', () => ({}));

function directives(csp: string): Map<string, string> {
  return new Map(csp.split('; ').map((d) => [d.split(' ')[0]!, d.slice(d.indexOf(' ') + 1)]));
}

describe('Content Security Policy', () => {
  it('allows only the app itself: no inline or remote scripts, plugins, frames, forms or base changes', () => {
    const csp = directives(contentSecurityPolicy());
    expect(csp.get('default-src')).toBe("'self'");
    expect(csp.get('script-src')).toBe("'self'");
    expect(csp.get('connect-src')).toBe("'self'");
    expect(csp.get('img-src')).toBe("'self' data: blob:");
    for (const none of ['object-src', 'frame-src', 'worker-src', 'base-uri', 'form-action', 'frame-ancestors']) expect(csp.get(none)).toBe("'none'");
    expect(contentSecurityPolicy()).not.toMatch(/unsafe-eval|\*/);
  });

  it('lets the development server in (its origin, hot-reload socket and inline preamble) only when there is one', () => {
    const csp = directives(contentSecurityPolicy({ devServer: 'http://localhost:5173' }));
    expect(csp.get('script-src')).toBe("'self' 'unsafe-inline' http://localhost:5173");
    expect(csp.get('connect-src')).toBe("'self' http://localhost:5173 ws://localhost:5173");
    expect(csp.get('object-src')).toBe("'none'");
  });
});

describe('navigation policy', () => {
  it('stays on the app origin, sends web and mail links outside, blocks the rest', () => {
    expect(decideNavigation(`${APP_ORIGIN}/index.html#queue`, APP_ORIGIN)).toBe('allow');
    expect(decideNavigation('https://docs.blender.org/manual', APP_ORIGIN)).toBe('open-external');
    expect(decideNavigation('http://farm.example.com', APP_ORIGIN)).toBe('open-external');
    expect(decideNavigation('mailto:help@example.com', APP_ORIGIN)).toBe('open-external');
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,hi', 'about:blank', 'app://other/x', 'smb://share/x', 'not a url']) {
      expect(decideNavigation(url, APP_ORIGIN)).toBe('block');
    }
  });

  it('never opens a new window, not even for the app itself', () => {
    expect(decideNavigation(`${APP_ORIGIN}/index.html`, APP_ORIGIN, true)).toBe('block');
    expect(decideNavigation('https://blender.org', APP_ORIGIN, true)).toBe('open-external');
  });

  it('compares custom-scheme origins part by part', () => {
    expect(isAppUrl('app://renderdrop/assets/a.js', APP_ORIGIN)).toBe(true);
    expect(isAppUrl('app://user@renderdrop/', APP_ORIGIN)).toBe(false);
    expect(isAppUrl('app://renderdrop:81/', APP_ORIGIN)).toBe(false);
    expect(isAppUrl('about:blank', APP_ORIGIN)).toBe(false);
  });
});

class FakeContents extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: string }) | null = null;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.openHandler = handler;
  }
  navigate(kind: 'will-navigate' | 'will-redirect', url: string) {
    const event = { url, preventDefault: vi.fn() };
    this.emit(kind, event);
    return event.preventDefault.mock.calls.length > 0;
  }
}

describe('window guards', () => {
  function guarded() {
    const contents = new FakeContents();
    const openExternal = vi.fn(async () => undefined);
    guardWebContents(contents as unknown as WebContents, APP_ORIGIN, openExternal);
    return { contents, openExternal };
  }

  it('stops navigation away from the app, opening web links in the browser instead', () => {
    const { contents, openExternal } = guarded();
    expect(contents.navigate('will-navigate', `${APP_ORIGIN}/index.html`)).toBe(false);
    expect(contents.navigate('will-navigate', 'https://blender.org/download')).toBe(true);
    expect(contents.navigate('will-redirect', 'https://evil.example')).toBe(true);
    expect(contents.navigate('will-navigate', 'file:///home/ana/shot.blend')).toBe(true);
    expect(openExternal.mock.calls).toEqual([['https://blender.org/download'], ['https://evil.example']]);
  });

  it('denies every new window; web links go to the browser', () => {
    const { contents, openExternal } = guarded();
    expect(contents.openHandler!({ url: 'https://blender.org' })).toEqual({ action: 'deny' });
    expect(contents.openHandler!({ url: `${APP_ORIGIN}/index.html` })).toEqual({ action: 'deny' });
    expect(contents.openHandler!({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(openExternal.mock.calls).toEqual([['https://blender.org']]);
  });

  it('refuses webviews', () => {
    const { contents } = guarded();
    const event = { preventDefault: vi.fn() };
    contents.emit('will-attach-webview', event, {}, {});
    expect(event.preventDefault).toHaveBeenCalled();
  });

  it('refuses every permission request and check', () => {
    let request: ((c: unknown, p: string, cb: (ok: boolean) => void) => void) | null = null;
    let check: (() => boolean) | null = null;
    denyPermissions({
      setPermissionRequestHandler: (h: never) => (request = h),
      setPermissionCheckHandler: (h: never) => (check = h),
    } as unknown as Session);
    const answer = vi.fn();
    request!(null, 'media', answer);
    expect(answer).toHaveBeenCalledWith(false);
    expect(check!()).toBe(false);
  });
});
