import { describe, expect, it } from 'vitest';
import { definitionsIn, sameValue } from './formulas';

describe('formulas', () => {
  it('reads definitions either way round, with implicit multiplication, inside prose', () => {
    const [slope] = definitionsIn('Point–slope: y − 4 = 3(x − 1), so y = 3x + 1.', false);
    expect(slope?.variable).toBe('y');
    const [reversed] = definitionsIn('so 2A/(a + b) = h.', true);
    expect(reversed?.variable).toBe('h');
    expect([...(reversed?.expression.variables ?? [])].sort()).toEqual(['A', 'a', 'b']);
  });

  it('compares formulas by value', () => {
    const [wanted] = definitionsIn('h = 2A/(a + b)', true);
    const [same] = definitionsIn('h = 2 * A / (b + a)', true);
    const [different] = definitionsIn('h = A/2(a + b)', true);
    expect(sameValue(wanted!.expression, same!.expression)).toBe(true);
    expect(sameValue(wanted!.expression, different!.expression)).toBe(false);
  });

  it('reads nothing from text that is not a formula, and never throws', () => {
    for (const text of ['', '=', 'x = ', 'the answer is yes', 'x = (1 + ', '= = =', 'a = b = c']) {
      expect(() => definitionsIn(text, false), text).not.toThrow();
    }
    expect(definitionsIn('the answer is yes', false)).toEqual([]);
    expect(definitionsIn('x = (1 + ', false)).toEqual([]);
  });
});
