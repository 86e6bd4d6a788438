import { secondsToNextSupplierCheck } from './supplier-checks';

describe('secondsToNextSupplierCheck', () => {
  it('asks every cadence for two minutes, then backs off to 15 minutes at most', () => {
    const waits = Array.from({ length: 20 }, (_, checks) => secondsToNextSupplierCheck(checks, 10));
    expect(waits.slice(0, 12)).toEqual(Array(12).fill(10));
    expect(waits.slice(12, 18)).toEqual([20, 40, 80, 160, 320, 640]);
    expect(waits.slice(18)).toEqual([900, 900]);
  });
});
