const ESC = 0x1b;
const BEL = 0x07;
const LF = 0x0a;
const CR = 0x0d;
const TAB = 0x09;

/**
 * Text from elsewhere (the server, a file name) made safe to print on a terminal: escape sequences
 * (CSI, OSC and the other string sequences, two-character escapes) and control characters (C0, DEL,
 * C1) are removed, tabs become spaces, and line breaks become spaces unless `multiline` keeps them
 * (as `\n`).
 */
export function safeText(text: string, options: { multiline?: boolean } = {}): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === ESC) {
      i = escapeEnd(text, i);
      continue;
    }
    if (code === CR || code === LF) {
      if (code === CR && text.charCodeAt(i + 1) === LF) i++;
      out += options.multiline ? '\n' : ' ';
      continue;
    }
    if (code === TAB) out += ' ';
    else if (!isControl(code)) out += text[i];
  }
  return out;
}

function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

/** Index of the last character of the escape sequence starting at `start` (an ESC). */
function escapeEnd(text: string, start: number): number {
  const kind = text[start + 1];
  if (kind === undefined) return start;
  if (kind === '[') {
    let i = start + 2;
    while (i < text.length) {
      const code = text.charCodeAt(i);
      if (code >= 0x40 && code <= 0x7e) return i;
      if (code < 0x20 || code > 0x3f) return i - 1;
      i++;
    }
    return text.length - 1;
  }
  if (kind === ']' || kind === 'P' || kind === 'X' || kind === '^' || kind === '_') {
    for (let i = start + 2; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === BEL) return i;
      if (code === ESC) return text[i + 1] === '\\' ? i + 1 : i - 1;
    }
    return text.length - 1;
  }
  const code = text.charCodeAt(start + 1);
  return code >= 0x20 && code <= 0x7e ? start + 1 : start;
}
