import { describe, expect, it } from 'vitest';
import { roundOrder } from '../../../bench/support/order';

describe('the order benchmark sides run in', () => {
  it('puts each of two sides first in half the rounds', () => {
    expect([0, 1, 2, 3].map((r) => roundOrder(['a', 'b'], r).join(''))).toEqual(['ab', 'ba', 'ba', 'ab']);
  });

  it('varies the first, the last and the predecessors of five sides over four rounds', () => {
    const rounds = [0, 1, 2, 3].map((r) => roundOrder(['a', 'b', 'c', 'd', 'e'], r).join(''));
    expect(rounds).toEqual(['abcde', 'edcba', 'bcdea', 'aedcb']);
    expect(rounds.every((order) => [...order].sort().join('') === 'abcde')).toBe(true);
  });
});
