/**
 * Formulas in answers ("t = (v − u)/a", "y = 3x + 1"): read as expressions over one-letter
 * variables and compared by value at fixed sample points, so an equivalent form ("v/a − u/a")
 * meets the key point and a wrong one ("A/2(a + b)" for "2A/(a + b)") is seen as wrong, which
 * comparing words and numbers cannot do (decision 0225).
 */
import { foldSymbols } from './text';

type Expression = (values: ReadonlyMap<string, number>) => number;

interface Parsed {
  evaluate: Expression;
  variables: Set<string>;
}

/** `variable = expression`, as written either way round. */
export interface Definition {
  variable: string;
  expression: Parsed;
}

const TOKEN = /\s*(\d+(?:\.\d+)?|[A-Za-z]|[-+*/^()])/y;

function tokenise(text: string): string[] | undefined {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    if (!match) return text.slice(at).trim() === '' ? tokens : undefined;
    tokens.push(match[1]!);
  }
  return tokens;
}

/** Recursive descent with implicit multiplication ("2A", "(a + b)h", "3(x − 1)"). */
function parse(text: string): Parsed | undefined {
  const tokens = tokenise(text);
  if (!tokens || tokens.length === 0) return undefined;
  const variables = new Set<string>();
  let at = 0;
  const peek = () => tokens[at];
  const startsFactor = (token: string | undefined) =>
    token !== undefined && (token === '(' || /^[\dA-Za-z]/.test(token));

  function primary(): Expression | undefined {
    const token = tokens![at++];
    if (token === undefined) return undefined;
    if (token === '(') {
      const inner = sum();
      if (tokens![at++] !== ')') return undefined;
      return inner;
    }
    if (/^\d/.test(token)) {
      const value = Number(token);
      return () => value;
    }
    if (/^[A-Za-z]$/.test(token)) {
      variables.add(token);
      return (values) => values.get(token) ?? Number.NaN;
    }
    return undefined;
  }
  function power(): Expression | undefined {
    if (peek() === '-') {
      at += 1;
      const inner = power();
      return inner && ((values) => -inner(values));
    }
    const base = primary();
    if (!base) return undefined;
    if (peek() !== '^') return base;
    at += 1;
    const exponent = power();
    return exponent && ((values) => base(values) ** exponent(values));
  }
  function product(): Expression | undefined {
    let left = power();
    while (left) {
      const token = peek();
      if (token === '*' || token === '/') {
        at += 1;
        const right = power();
        if (!right) return undefined;
        const before = left;
        left =
          token === '*'
            ? (values) => before(values) * right(values)
            : (values) => before(values) / right(values);
      } else if (startsFactor(token)) {
        const right = power();
        if (!right) return undefined;
        const before = left;
        left = (values) => before(values) * right(values);
      } else break;
    }
    return left;
  }
  function sum(): Expression | undefined {
    let left = product();
    while (left && (peek() === '+' || peek() === '-')) {
      const sign = tokens![at++];
      const right = product();
      if (!right) return undefined;
      const before = left;
      left =
        sign === '+'
          ? (values) => before(values) + right(values)
          : (values) => before(values) - right(values);
    }
    return left;
  }
  const evaluate = sum();
  if (!evaluate || at !== tokens.length) return undefined;
  return { evaluate, variables };
}

/** The definitions a text states: each `x = …` or `… = x` whose other side reads as a formula. */
export function definitionsIn(text: string, caseSensitive: boolean): Definition[] {
  let folded = foldSymbols(text);
  if (!caseSensitive) folded = folded.toLowerCase();
  const definitions: Definition[] = [];
  // Chains ("m = 6/2 = 3") are read pair by pair.
  const sides = folded.split(/(?<!=)=(?!=)/);
  for (let index = 0; index + 1 < sides.length; index += 1) {
    const left = lastFormula(sides[index]!);
    const right = firstFormula(sides[index + 1]!);
    if (!left || !right) continue;
    for (const [variable, other] of [
      [left, right],
      [right, left],
    ] as const) {
      if (!/^[A-Za-z]$/.test(variable)) continue;
      const expression = parse(other);
      if (expression && !expression.variables.has(variable)) {
        definitions.push({ variable, expression });
        break;
      }
    }
  }
  return definitions;
}

// A run of formula characters next to an "=": digits, one-letter variables, operators and
// brackets, stopping at a word ("so y = 3x + 1, check…").
const FORMULA_CHARS = /(?:[\d.()+\-*/^ ]|(?<![A-Za-z])[A-Za-z](?![A-Za-z]))+$/;
const FORMULA_START = /^(?:[\d.()+\-*/^ ]|(?<![A-Za-z])[A-Za-z](?![A-Za-z]))+/;

function lastFormula(text: string): string | undefined {
  const match = FORMULA_CHARS.exec(text.replace(/\s+$/, ''));
  return match?.[0].trim() || undefined;
}

function firstFormula(text: string): string | undefined {
  const match = FORMULA_START.exec(text.replace(/^\s+/, ''));
  // A sentence's full stop after a formula is not a decimal point.
  return match?.[0].trim().replace(/\.$/, '') || undefined;
}

/** Fixed sample values: the same verdict for the same answer every time. */
const SAMPLES = [1.37, 2.91, 0.58, 4.23, 3.11];

/** Whether two expressions agree at every sample point (both undefined somewhere: skipped). */
export function sameValue(a: Parsed, b: Parsed): boolean {
  const names = [...new Set([...a.variables, ...b.variables])];
  let compared = 0;
  for (let sample = 0; sample < SAMPLES.length; sample += 1) {
    const values = new Map(
      names.map((name, index) => [name, SAMPLES[(sample + index) % SAMPLES.length]! + index]),
    );
    const left = a.evaluate(values);
    const right = b.evaluate(values);
    if (!Number.isFinite(left) || !Number.isFinite(right)) continue;
    if (Math.abs(left - right) > 1e-6 * Math.max(1, Math.abs(left))) return false;
    compared += 1;
  }
  return compared > 0;
}
