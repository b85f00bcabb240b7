import { describe, expect, it } from 'vitest';
import { selectionHint, selectionProblem } from '../src/prompt';

describe("the page enforces a prompt's selection rules before sending", () => {
  it('single: exactly one', () => {
    expect(selectionProblem({ mode: 'single' }, 0, 3)).toBe('Choose one option.');
    expect(selectionProblem({ mode: 'single' }, 1, 3)).toBeNull();
    expect(selectionProblem({ mode: 'single' }, 2, 3)).toBe('Choose one option.');
    expect(selectionHint({ mode: 'single' }, 3)).toBe('Choose one.');
  });

  it('multi: between min (default 1) and max (default every option)', () => {
    const rules = { mode: 'multi', min: 2, max: 3 } as const;
    expect(selectionProblem(rules, 1, 5)).toBe('Choose at least 2 options (you chose 1).');
    expect(selectionProblem(rules, 2, 5)).toBeNull();
    expect(selectionProblem(rules, 3, 5)).toBeNull();
    expect(selectionProblem(rules, 4, 5)).toBe('Choose at most 3 options (you chose 4).');
    expect(selectionHint(rules, 5)).toBe('Choose 2 to 3.');
    expect(selectionProblem({ mode: 'multi' }, 0, 4)).toBe('Choose at least 1 option (you chose 0).');
    expect(selectionProblem({ mode: 'multi' }, 4, 4)).toBeNull();
    expect(selectionProblem({ mode: 'multi', min: 0 }, 0, 4)).toBeNull();
    expect(selectionHint({ mode: 'multi', min: 0, max: 2 }, 4)).toBe('Choose up to 2.');
    expect(selectionProblem({ mode: 'multi', max: 9 }, 5, 4)).toBe('Choose at most 4 options (you chose 5).');
  });
});
