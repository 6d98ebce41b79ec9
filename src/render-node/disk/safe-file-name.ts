import { basename } from 'node:path';

/** A file name safe on every system, from a name the client chose; `fallback` when nothing is left. */
export function safeFileName(name: string, fallback: string): string {
  const base = basename(name.replace(/\\/g, '/')).replace(/[^A-Za-z0-9._ -]/g, '_');
  return base && base !== '.' && base !== '..' ? base : fallback;
}
