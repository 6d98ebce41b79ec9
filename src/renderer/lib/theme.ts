import type { Theme } from '../../shared/contract';

/** Applies a theme to the document; `system` follows the OS and keeps following it. Returns a cleanup. */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): () => void {
  if (theme !== 'system') {
    root.dataset.theme = theme;
    return () => undefined;
  }
  const query = window.matchMedia('(prefers-color-scheme: light)');
  const set = () => {
    root.dataset.theme = query.matches ? 'light' : 'dark';
  };
  set();
  query.addEventListener('change', set);
  return () => query.removeEventListener('change', set);
}
