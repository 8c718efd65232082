import { describe, expect, it } from 'vitest';
import { frameCount, loopPhaseAt, type MotionPlan, progressAt } from './motion-plan.ts';

const plan = (over: Partial<MotionPlan> = {}): MotionPlan => ({
  type: 'scroll',
  format: 'mp4',
  duration: 6,
  fps: 30,
  easing: 'ease-in-out',
  holdStart: 0.5,
  holdEnd: 0.5,
  scrollTo: { kind: 'end' },
  drift: false,
  quality: undefined,
  ...over,
});

describe('motion timeline', () => {
  it('counts duration x fps frames', () => {
    expect(frameCount(plan())).toBe(180);
    expect(frameCount(plan({ duration: 1.5, fps: 15 }))).toBe(23);
  });

  it('holds still at both ends and reaches exactly 1 on the last frame', () => {
    const p = plan();
    expect(progressAt(p, 0)).toBe(0);
    expect(progressAt(p, 10)).toBe(0); // 0.33 s, inside the 0.5 s hold
    expect(progressAt(p, 179)).toBe(1);
    expect(progressAt(p, 170)).toBe(1); // inside the end hold
    expect(progressAt(p, 90)).toBeGreaterThan(0.4);
    expect(progressAt(p, 90)).toBeLessThan(0.6);
  });

  it('moves monotonically and eases in and out', () => {
    const p = plan({ holdStart: 0, holdEnd: 0 });
    let last = -1;
    for (let i = 0; i < frameCount(p); i++) {
      const v = progressAt(p, i);
      expect(v).toBeGreaterThanOrEqual(last);
      last = v;
    }
    // Slow at the ends, fast in the middle.
    expect(progressAt(p, 1) - progressAt(p, 0)).toBeLessThan(progressAt(p, 91) - progressAt(p, 90));
    const linear = plan({ holdStart: 0, holdEnd: 0, easing: 'linear' });
    expect(progressAt(linear, 1) - progressAt(linear, 0)).toBeCloseTo(
      progressAt(linear, 91) - progressAt(linear, 90),
    );
  });

  it('loops without repeating the first frame', () => {
    const p = plan({ type: 'float', fps: 10, duration: 2 });
    expect(loopPhaseAt(p, 0)).toBe(0);
    expect(loopPhaseAt(p, frameCount(p) - 1)).toBeCloseTo(0.95);
  });
});
