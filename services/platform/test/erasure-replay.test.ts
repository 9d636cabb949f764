import { ErasureHistoryGone, replayPositions } from '../src/erasure-replay';

const backupNight = new Date('2026-11-30T02:00:00Z');

describe('where the erasure groups read from after a restore', () => {
  it('goes back to the first deletion request at or after the backup’s time', () => {
    const partitions = [
      { partition: 0, low: 0, high: 40, atTime: 31 },
      { partition: 1, low: 0, high: 12, atTime: 12 },
    ];
    const committed = new Map([
      [0, 40],
      [1, 12],
    ]);
    expect(replayPositions(partitions, committed, backupNight)).toEqual([
      { partition: 0, offset: 31 },
      { partition: 1, offset: 12 },
    ]);
  });

  it('keeps a group where it stands when it has not yet read that far, and starts a new group at the backup’s time', () => {
    const partitions = [
      { partition: 0, low: 0, high: 40, atTime: 31 },
      { partition: 1, low: 0, high: 12, atTime: 5 },
    ];
    expect(replayPositions(partitions, new Map([[0, 20]]), backupNight)).toEqual([
      { partition: 0, offset: 20 },
      { partition: 1, offset: 5 },
    ]);
    expect(replayPositions(partitions, new Map([[0, -1]]), backupNight)[0]).toEqual({ partition: 0, offset: 31 });
  });

  it('refuses when retention may have taken a deletion request made after the backup', () => {
    // Partition 1's oldest record is already after the backup, and the ones before it are gone.
    const partitions = [
      { partition: 0, low: 3, high: 40, atTime: 31 },
      { partition: 1, low: 7, high: 12, atTime: 7 },
    ];
    expect(() => replayPositions(partitions, new Map(), backupNight)).toThrow(ErasureHistoryGone);
    expect(() => replayPositions(partitions, new Map(), backupNight)).toThrow(
      /no longer holds every deletion request made since 2026-11-30T02:00:00.000Z \(partition 1 of haven\.compliance\.events/,
    );
  });

  it('accepts a topic whose older records are gone when each partition still holds one from before the backup', () => {
    const partitions = [{ partition: 0, low: 3, high: 40, atTime: 4 }];
    expect(replayPositions(partitions, new Map(), backupNight)).toEqual([{ partition: 0, offset: 4 }]);
  });
});
