/**
 * Blender's rule for a driver's "simple expression": the expressions its own small evaluator runs
 * without Python (blenlib's expr_pylike parser, used by the animation system before it turns to
 * Python). Only the question "does the parser accept it" is answered here; nothing is evaluated.
 */

/** Built-in functions of the evaluator and the argument counts each accepts. */
const FUNCTIONS: ReadonlyMap<string, readonly number[]> = new Map([
  ['radians', [1]],
  ['degrees', [1]],
  ['abs', [1]],
  ['fabs', [1]],
  ['floor', [1]],
  ['ceil', [1]],
  ['trunc', [1]],
  ['round', [1]],
  ['int', [1]],
  ['sin', [1]],
  ['cos', [1]],
  ['tan', [1]],
  ['asin', [1]],
  ['acos', [1]],
  ['atan', [1]],
  ['atan2', [2]],
  ['exp', [1]],
  ['log', [1, 2]],
  ['sqrt', [1]],
  ['pow', [2]],
  ['fmod', [2]],
  ['lerp', [3]],
  ['clamp', [1, 3]],
  ['smoothstep', [3]],
]);

const CONSTANTS = new Set(['pi', 'True', 'False']);
const KEYWORDS = new Set(['and', 'or', 'not', 'if', 'else']);
/** Characters that are tokens of their own (anything else that is not a number or a name ends the parse). */
const SINGLE = new Set('~`!@#$%^&*+-=/\\?:;<>(){}[]|.,"\'');
const COMPARISONS = new Set(['==', '!=', '<', '<=', '>', '>=']);

type Token = { kind: 'number' | 'name' | 'keyword' | 'op' | 'end'; text: string };

class Rejected extends Error {}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function isAlpha(c: string | undefined): boolean {
  return c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}

function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\v' || c === '\f';
}

/** The evaluator's tokens: decimal numbers (no C-style octal), ASCII names, its keywords, one- and two-character operators. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  for (;;) {
    while (isSpace(text[i])) i++;
    const c = text[i];
    if (c === undefined) break;
    if (isDigit(c) || (c === '.' && isDigit(text[i + 1]))) {
      const start = i;
      let float = false;
      while (isDigit(text[i])) i++;
      if (text[i] === '.') {
        float = true;
        i++;
        while (isDigit(text[i])) i++;
      }
      if (text[i] === 'e' || text[i] === 'E') {
        float = true;
        i++;
        if (text[i] === '+' || text[i] === '-') i++;
        if (!isDigit(text[i])) throw new Rejected();
        while (isDigit(text[i])) i++;
      }
      const number = text.slice(start, i);
      if (!float && number.length > 1 && number[0] === '0' && /[1-9]/.test(number)) throw new Rejected();
      tokens.push({ kind: 'number', text: number });
    } else if (text[i + 1] === '=' && '!=><'.includes(c)) {
      tokens.push({ kind: 'op', text: `${c}=` });
      i += 2;
    } else if (SINGLE.has(c)) {
      tokens.push({ kind: 'op', text: c });
      i++;
    } else if (isAlpha(c) || c === '_') {
      const start = i;
      while (isAlpha(text[i]) || isDigit(text[i]) || text[i] === '_') i++;
      const name = text.slice(start, i);
      tokens.push({ kind: KEYWORDS.has(name) ? 'keyword' : 'name', text: name });
    } else {
      throw new Rejected();
    }
  }
  tokens.push({ kind: 'end', text: '' });
  return tokens;
}

/** A recursive-descent parser of the evaluator's grammar that only says whether the whole text parses. */
class SimpleParser {
  private at = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly parameters: ReadonlySet<string>,
  ) {}

  private get token(): Token {
    return this.tokens[this.at]!;
  }

  private is(text: string): boolean {
    return (this.token.kind === 'op' || this.token.kind === 'keyword') && this.token.text === text;
  }

  private expect(text: string): void {
    if (!this.is(text)) throw new Rejected();
    this.at++;
  }

  whole(): void {
    this.expression();
    if (this.token.kind !== 'end') throw new Rejected();
  }

  private expression(): void {
    this.or();
    if (this.is('if')) {
      this.at++;
      this.or();
      this.expect('else');
      this.expression();
    }
  }

  private or(): void {
    this.and();
    if (this.is('or')) {
      this.at++;
      this.or();
    }
  }

  private and(): void {
    this.not();
    if (this.is('and')) {
      this.at++;
      this.and();
    }
  }

  private not(): void {
    if (this.is('not')) {
      this.at++;
      this.not();
      return;
    }
    this.comparison();
  }

  private comparison(): void {
    this.sum();
    while (this.token.kind === 'op' && COMPARISONS.has(this.token.text)) {
      this.at++;
      this.sum();
    }
  }

  private sum(): void {
    this.product();
    while (this.is('+') || this.is('-')) {
      this.at++;
      this.product();
    }
  }

  private product(): void {
    this.unary();
    while (this.is('*') || this.is('/')) {
      this.at++;
      this.unary();
    }
  }

  private unary(): void {
    const token = this.token;
    if (this.is('+') || this.is('-')) {
      this.at++;
      this.unary();
      return;
    }
    if (this.is('(')) {
      this.at++;
      this.expression();
      this.expect(')');
      return;
    }
    if (token.kind === 'number') {
      this.at++;
      return;
    }
    if (token.kind !== 'name') throw new Rejected();
    this.at++;
    if (this.parameters.has(token.text) || CONSTANTS.has(token.text)) return;
    const counts = FUNCTIONS.get(token.text);
    if (counts) {
      if (!counts.includes(this.arguments())) throw new Rejected();
      return;
    }
    if (token.text === 'min' || token.text === 'max') {
      this.arguments();
      return;
    }
    throw new Rejected();
  }

  /** A call's parenthesised arguments (at least one); returns how many. */
  private arguments(): number {
    this.expect('(');
    let count = 0;
    for (;;) {
      this.expression();
      count++;
      if (this.is(',')) {
        this.at++;
        continue;
      }
      this.expect(')');
      return count;
    }
  }
}

/**
 * Whether Blender's simple-expression evaluator accepts a driver's expression: numbers, `pi`, `True`,
 * `False`, the driver's variables and `frame`, `+ - * /`, comparisons (chained too), `and`, `or`,
 * `not`, `x if c else y`, parentheses and its functions (`sin`, `abs`, `min`, `max`, `lerp`, ...).
 * A variable named like a function hides that function, as in Blender.
 */
export function isSimpleExpression(expression: string, variables: readonly string[]): boolean {
  try {
    new SimpleParser(tokenize(expression), new Set(['frame', ...variables])).whole();
    return true;
  } catch (error) {
    if (error instanceof Rejected) return false;
    throw error;
  }
}
