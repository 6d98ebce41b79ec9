import { pythonTokens, type PyToken } from './python-tokens';

/**
 * When a driver's expression is not simple, Blender compiles it with Python; with scripts not
 * trusted (`-Y`, the farm's default) it runs it only when every name is one of the restricted
 * namespace's and every bytecode is on a list (bpy_driver.cc). The list depends on the Python that
 * Blender was built with: on Blender 4.3 with Python 3.13 conditional jumps, `not`, boolean operators,
 * chained comparisons and constant results are refused, on 3.4 with Python 3.11 starred arguments,
 * and slices on some. This module accepts only what runs under that check in every one of them.
 */

/** Names of Python's `math` module present since Python 3.9 (merged into the drivers' namespace). */
const MATH = new Set(
  (
    'acos acosh asin asinh atan atan2 atanh ceil comb copysign cos cosh degrees dist e erf erfc exp expm1 fabs factorial floor fmod frexp fsum ' +
    'gamma gcd hypot inf isclose isfinite isinf isnan isqrt lcm ldexp lgamma log log10 log1p log2 modf nan nextafter perm pi pow prod radians ' +
    'remainder sin sinh sqrt tan tanh tau trunc ulp'
  ).split(' '),
);

/** Built-ins Blender lets a restricted driver call, `bl_math`'s functions, and the namespace's own entries. */
const ALLOWED = new Set(['all', 'any', 'len', 'max', 'min', 'pow', 'round', 'sum', 'bool', 'float', 'int', 'clamp', 'lerp', 'smoothstep', 'bpy', 'noise', 'depsgraph', 'frame']);

/** Python keywords and operators that never pass the check in every Blender (functions, loops, jumps, unpacking). */
const REFUSED_WORDS = new Set(['lambda', 'for', 'async', 'await', 'yield', 'if', 'else', 'and', 'or', 'not', 'import', 'del', 'global', 'nonlocal', 'assert', 'class', 'def', 'return', 'with', 'while', 'try', 'except', 'raise', 'pass', 'break', 'continue', 'from', 'as', 'elif', 'finally']);
const CONSTANT_WORDS = new Set(['None', 'True', 'False']);
const BINARY = new Set(['+', '-', '*', '/', '//', '%', '**', '@', '&', '|', '^', '<<', '>>']);
const COMPARE = new Set(['==', '!=', '<', '<=', '>', '>=']);

class Refused extends Error {}

class RestrictedParser {
  private at = 0;
  /** Whether a name was read (an expression of constants alone is folded into one, which 3.12+ returns with a refused bytecode). */
  namesSeen = 0;

  constructor(
    private readonly tokens: PyToken[],
    private readonly names: ReadonlySet<string>,
  ) {}

  private get token(): PyToken {
    return this.tokens[this.at]!;
  }

  private isOp(text: string): boolean {
    return this.token.kind === 'op' && this.token.text === text;
  }

  private isWord(text: string): boolean {
    return this.token.kind === 'name' && this.token.text === text;
  }

  private expect(text: string): void {
    if (!this.isOp(text)) throw new Refused();
    this.at++;
  }

  whole(): void {
    this.list(null);
    if (this.token.kind !== 'end') throw new Refused();
  }

  /** One comparison at most: a chain copies values and jumps. `in`, `not in`, `is` and `is not` count as comparisons. */
  private expression(): void {
    this.binary();
    if (this.comparison()) {
      this.binary();
      if (this.comparison()) throw new Refused();
    }
  }

  private comparison(): boolean {
    const token = this.token;
    if (token.kind === 'op' && COMPARE.has(token.text)) {
      this.at++;
      return true;
    }
    if (this.isWord('in')) {
      this.at++;
      return true;
    }
    if (this.isWord('is')) {
      this.at++;
      if (this.isWord('not')) this.at++;
      return true;
    }
    if (this.isWord('not') && this.tokens[this.at + 1]?.kind === 'name' && (this.tokens[this.at + 1] as { text: string }).text === 'in') {
      this.at += 2;
      return true;
    }
    return false;
  }

  private binary(): void {
    this.unary();
    while (this.token.kind === 'op' && BINARY.has(this.token.text)) {
      this.at++;
      this.unary();
    }
  }

  private unary(): void {
    while (this.isOp('-') || this.isOp('+') || this.isOp('~')) this.at++;
    this.atom();
    for (;;) {
      if (this.isOp('(')) {
        this.at++;
        this.callArguments();
      } else if (this.isOp('[')) {
        this.at++;
        this.list(']');
        this.expect(']');
      } else {
        return;
      }
    }
  }

  private atom(): void {
    const token = this.token;
    if (token.kind === 'number') {
      this.at++;
      return;
    }
    if (token.kind === 'string') {
      if (token.formatted) throw new Refused();
      while (this.token.kind === 'string') {
        if (this.token.formatted) throw new Refused();
        this.at++;
      }
      return;
    }
    if (token.kind === 'name') {
      if (CONSTANT_WORDS.has(token.text)) {
        this.at++;
        return;
      }
      if (REFUSED_WORDS.has(token.text) || token.text === 'in' || token.text === 'is' || token.text.startsWith('_') || !this.names.has(token.text)) throw new Refused();
      this.namesSeen++;
      this.at++;
      return;
    }
    if (this.isOp('(') || this.isOp('[')) {
      const close = this.isOp('(') ? ')' : ']';
      this.at++;
      this.list(close);
      this.expect(close);
      return;
    }
    if (this.isOp('{')) {
      this.at++;
      this.display();
      this.expect('}');
      return;
    }
    throw new Refused();
  }

  /** Comma-separated expressions up to `close` (or the end), a trailing comma allowed. */
  private list(close: string | null): void {
    if (close !== null && this.isOp(close)) return;
    for (;;) {
      this.expression();
      if (!this.isOp(',')) return;
      this.at++;
      if ((close !== null && this.isOp(close)) || this.token.kind === 'end') return;
    }
  }

  /** A dict or set display without unpacking or comprehension. */
  private display(): void {
    if (this.isOp('}')) return;
    for (;;) {
      this.expression();
      if (this.isOp(':')) {
        this.at++;
        this.expression();
      }
      if (!this.isOp(',')) return;
      this.at++;
      if (this.isOp('}')) return;
    }
  }

  /** Positional and keyword arguments, without `*` or `**`. */
  private callArguments(): void {
    if (this.isOp(')')) {
      this.at++;
      return;
    }
    for (;;) {
      const next = this.tokens[this.at + 1];
      if (this.token.kind === 'name' && next?.kind === 'op' && next.text === '=') this.at += 2;
      this.expression();
      if (this.isOp(',')) {
        this.at++;
        if (this.isOp(')')) break;
        continue;
      }
      break;
    }
    this.expect(')');
  }
}

/**
 * Whether a driver's expression that is not simple still runs in Blender without trusting the file's
 * scripts: only the driver's variables, `frame`, `self` (when the driver uses it), the math functions
 * and the few built-ins Blender allows, called, indexed and combined by arithmetic and one comparison.
 * No attribute, no `if`/`and`/`or`/`not`, no slice, no lambda, comprehension, f-string or unpacking.
 */
export function runsRestricted(expression: string, variables: readonly string[], useSelf: boolean): boolean {
  const tokens = pythonTokens(expression);
  if (tokens === null) return false;
  const names = new Set([...MATH, ...ALLOWED, ...variables, ...(useSelf ? ['self'] : [])]);
  const parser = new RestrictedParser(tokens, names);
  try {
    parser.whole();
  } catch (error) {
    if (error instanceof Refused) return false;
    throw error;
  }
  return parser.namesSeen > 0;
}
