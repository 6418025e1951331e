import { describe, expect, it } from 'vitest';
import { atLeast, atMost, exactly, parseBenchLine, within } from '../../../bench/support/goals';
import { median, percentile } from '../../../bench/support/stats';

describe('bench goals', () => {
  it('checks ratios and counts, and a missing figure (NaN) never meets a goal', () => {
    expect(atLeast('guarded / bare', 0.71, 0.7, 'bare').met).toBe(true);
    expect(atLeast('guarded / bare', 0.69, 0.7, 'bare').met).toBe(false);
    expect(atLeast('guarded / bare', NaN, 0.7, 'bare').met).toBe(false);
    expect(atMost('seal / load-and-save', 20, 20, 'load').met).toBe(true);
    expect(atMost('seal / load-and-save', NaN, 20, 'load').met).toBe(false);
    expect(exactly('lost', 0, 0, 'all').met).toBe(true);
    expect(exactly('lost', 1, 0, 'all')).toMatchObject({ goal: '= 0', figure: 1, met: false });
    expect(within('off (second node) / off', 0.93, 0.9, 1.1, 'off')).toMatchObject({ goal: '0.9..1.1', met: true });
    expect(within('off (second node) / off', 1.12, 0.9, 1.1, 'off').met).toBe(false);
    expect(within('off (second node) / off', 0.89, 0.9, 1.1, 'off').met).toBe(false);
    expect(within('off (second node) / off', NaN, 0.9, 1.1, 'off').met).toBe(false);
  });

  it('finds the result line among what a bench printed', () => {
    const line = { bench: 'x', goals: [exactly('lost', 0, 0, 'all')], met: true };
    expect(parseBenchLine(`starting\n${JSON.stringify(line)}\n{"other":1}\n`)).toEqual(line);
    expect(parseBenchLine('no json here\n')).toBeUndefined();
  });

  it('takes percentiles by nearest rank and the median of an even count as the mean of the middle two', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(xs, 50)).toBe(51);
    expect(percentile(xs, 99)).toBe(100);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});
