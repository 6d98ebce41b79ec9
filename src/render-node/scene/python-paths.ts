/**
 * POSIX path functions that give exactly what Python's `os.path` gives (the analysis script resolves
 * paths with them), where Node's differ: `//` kept at the start, trailing slashes dropped, a joined
 * absolute part replacing what came before.
 */

/** Python's `os.path.normpath` on POSIX. */
export function pyNormpath(path: string): string {
  if (path === '') return '.';
  let initial = path.startsWith('/') ? 1 : 0;
  if (path.startsWith('//') && !path.startsWith('///')) initial = 2;
  const out: string[] = [];
  for (const comp of path.split('/')) {
    if (comp === '' || comp === '.') continue;
    if (comp !== '..' || (initial === 0 && out.length === 0) || out.at(-1) === '..') out.push(comp);
    else if (out.length > 0) out.pop();
  }
  const joined = '/'.repeat(initial) + out.join('/');
  return joined || '.';
}

/** Python's `os.path.join(a, b)` on POSIX. */
export function pyJoin(a: string, b: string): string {
  if (b.startsWith('/')) return b;
  return a === '' || a.endsWith('/') ? a + b : `${a}/${b}`;
}

/** Python's `os.path.dirname` on POSIX. */
export function pyDirname(path: string): string {
  const cut = path.lastIndexOf('/') + 1;
  const head = path.slice(0, cut);
  return head && head !== '/'.repeat(head.length) ? head.replace(/\/+$/, '') : head;
}
