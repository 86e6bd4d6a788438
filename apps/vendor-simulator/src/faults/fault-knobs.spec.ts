import { FaultBoard, FaultSettingsError, NO_FAULTS, parseFaultSettings } from './fault-knobs';

const LATENCIES = { atlas: 0, borealis: 100, cobalt: 0 };

describe('fault knobs', () => {
  it('spread a share evenly, the first request hit', () => {
    const board = new FaultBoard(parseFaultSettings({ atlas: { serverErrorShare: 0.25 } }), LATENCIES);
    const hits = Array.from({ length: 9 }, () => board.plan('atlas', 'availability').refusal !== undefined);
    expect(hits).toEqual([true, false, false, false, true, false, false, false, true]);
    const tenth = new FaultBoard(parseFaultSettings({ atlas: { malformedShare: 0.1 } }), LATENCIES);
    expect(Array.from({ length: 30 }, () => tenth.plan('atlas', 'booking').answer?.kind).filter(Boolean)).toEqual(['malformed', 'malformed', 'malformed']);
  });

  it('apply to the operations named only, and to one vendor', () => {
    const board = new FaultBoard(parseFaultSettings({ cobalt: { loseAnswerShare: 1, operations: ['booking'] } }), LATENCIES);
    expect(board.plan('cobalt', 'booking').answer).toEqual({ kind: 'lose' });
    expect(board.plan('cobalt', 'availability').answer).toBeUndefined();
    expect(board.plan('cobalt', undefined).answer).toBeUndefined();
    expect(board.plan('atlas', 'booking').answer).toBeUndefined();
  });

  it('add latency and seeded jitter to the vendor’s own, the same sequence after every setting', () => {
    const board = new FaultBoard({}, LATENCIES);
    expect(board.plan('borealis', 'availability').delayMs).toBe(100);
    board.set(parseFaultSettings({ borealis: { latencyMs: 50, jitterMs: 40 } }));
    const first = Array.from({ length: 5 }, () => board.plan('borealis', 'availability').delayMs);
    for (const delay of first) expect(delay).toBeGreaterThanOrEqual(150);
    for (const delay of first) expect(delay).toBeLessThanOrEqual(190);
    board.set(parseFaultSettings({ borealis: { latencyMs: 50, jitterMs: 40 } }));
    expect(Array.from({ length: 5 }, () => board.plan('borealis', 'availability').delayMs)).toEqual(first);
  });

  it('refuse settings they do not know, naming each problem', () => {
    expect(() => parseFaultSettings({ atlas: { throttleStatus: 500, operations: ['search'] }, nowhere: {} })).toThrow(FaultSettingsError);
    try {
      parseFaultSettings({ atlas: { throttleStatus: 500, operations: ['search'], latencyMs: 1.5 }, nowhere: {} });
    } catch (error) {
      expect((error as FaultSettingsError).problems).toEqual([
        'atlas.throttleStatus: 403 or 429',
        expect.stringMatching(/^atlas\.operations: a list of availability, checkRate/),
        'atlas.latencyMs: a whole number from 0 to 120000',
        'nowhere: not a vendor (atlas, borealis, cobalt)',
      ]);
    }
    expect(parseFaultSettings({ atlas: {} })).toEqual({ atlas: NO_FAULTS });
  });
});
