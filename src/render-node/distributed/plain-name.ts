const PLAIN_NAME = /^[^/\\\0]+$/;

/** Whether a name is one plain file name (no folders, not hidden, not too long). */
export function isPlainName(name: string): boolean {
  return PLAIN_NAME.test(name) && !name.startsWith('.') && Buffer.byteLength(name) <= 255;
}
