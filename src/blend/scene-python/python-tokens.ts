/** One token of a Python expression, as far as the restricted-driver check needs to tell them apart. */
export type PyToken =
  | { kind: 'name'; text: string }
  | { kind: 'number'; text: string }
  /** A string literal; `formatted` for an f-string (or t-string), which Python turns into code. */
  | { kind: 'string'; formatted: boolean }
  | { kind: 'op'; text: string }
  | { kind: 'end' };

/** Operators, longest first so `**` is not read as two `*`. */
const OPERATORS = ['**=', '//=', '>>=', '<<=', '...', '->', ':=', '**', '//', '<<', '>>', '<=', '>=', '==', '!=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '@=',
  '+', '-', '*', '/', '%', '@', '&', '|', '^', '~', '<', '>', '(', ')', '[', ']', '{', '}', ',', ':', '.', ';', '=', '!'];

const NUMBER = /^(?:0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|(?:(?:\d(?:_?\d)*)?\.\d(?:_?\d)*|\d(?:_?\d)*\.?)(?:[eE][+-]?\d(?:_?\d)*)?[jJ]?)/;
const STRING_START = /^([rRbBuUfFtT]{0,2})('''|"""|'|")/;
const NAME = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*/u;

/** The tokens of a Python expression, or null when it is not one Python could read (an unclosed string, a stray character). */
export function pythonTokens(text: string): PyToken[] | null {
  const tokens: PyToken[] = [];
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const space = /^(?:[ \t\f\r\n]|\\\r?\n)+/.exec(rest);
    if (space) {
      i += space[0].length;
      continue;
    }
    if (rest[0] === '#') return null;
    const string = STRING_START.exec(rest);
    if (string && (string[1] === '' || /^[rbuft]{1,2}$/i.test(string[1]!))) {
      const end = stringEnd(text, i + string[0].length, string[2]!, /r/i.test(string[1]!));
      if (end < 0) return null;
      tokens.push({ kind: 'string', formatted: /[ft]/i.test(string[1]!) });
      i = end;
      continue;
    }
    const number = /^[0-9]|^\.[0-9]/.test(rest) ? NUMBER.exec(rest) : null;
    if (number) {
      tokens.push({ kind: 'number', text: number[0] });
      i += number[0].length;
      continue;
    }
    const name = NAME.exec(rest);
    if (name) {
      tokens.push({ kind: 'name', text: name[0] });
      i += name[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => rest.startsWith(o));
    if (!op) return null;
    tokens.push({ kind: 'op', text: op });
    i += op.length;
  }
  tokens.push({ kind: 'end' });
  return tokens;
}

/** Where a string literal that opened with `quote` just before `from` ends (after its closing quote), or -1. */
function stringEnd(text: string, from: number, quote: string, raw: boolean): number {
  let i = from;
  while (i < text.length) {
    if (text.startsWith(quote, i)) return i + quote.length;
    const c = text[i]!;
    if (c === '\\') {
      i += 2;
      continue;
    }
    if ((c === '\n' || c === '\r') && quote.length === 1 && !raw) return -1;
    i++;
  }
  return -1;
}
