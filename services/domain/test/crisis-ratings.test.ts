import { isCrisis } from '../src/crisis-ratings';

describe('crisis signals in the ratings', () => {
  it('is urgency 5 with hope 1 or 2, or urgency 4 or more with hope 1 and a support system of 1', () => {
    const calm = { urgencyOfNeed: 3, hopeForFuture: 3, supportSystemStrength: 3 };
    expect(isCrisis(calm)).toBe(false);
    expect(isCrisis({ ...calm, urgencyOfNeed: 5, hopeForFuture: 2 })).toBe(true);
    expect(isCrisis({ ...calm, urgencyOfNeed: 5, hopeForFuture: 3 })).toBe(false);
    expect(isCrisis({ urgencyOfNeed: 4, hopeForFuture: 1, supportSystemStrength: 1 })).toBe(true);
    expect(isCrisis({ urgencyOfNeed: 4, hopeForFuture: 1, supportSystemStrength: 2 })).toBe(false);
    expect(isCrisis({ urgencyOfNeed: 3, hopeForFuture: 1, supportSystemStrength: 1 })).toBe(false);
  });
});
