import { consumerLag } from '../src/consumer-lag';

const bounds = [
  { partition: 0, low: '0', high: '10' },
  { partition: 1, low: '5', high: '7' },
  { partition: 2, low: '0', high: '0' },
];

describe('consumer lag', () => {
  it('sums, over the partitions, the messages past the group’s committed offsets', () => {
    const committed = [
      { partition: 0, offset: '4' },
      { partition: 1, offset: '7' },
      { partition: 2, offset: '0' },
    ];
    expect(consumerLag(bounds, committed)).toBe(6);
  });

  it('is 0 when the group has read every partition to its end', () => {
    const committed = [
      { partition: 0, offset: '10' },
      { partition: 1, offset: '7' },
      { partition: 2, offset: '-1' },
    ];
    expect(consumerLag(bounds, committed)).toBe(0);
  });

  it('counts a partition without a commit from the oldest message it still holds', () => {
    expect(consumerLag(bounds, [{ partition: 0, offset: '-1' }])).toBe(10 + 2);
    expect(consumerLag(bounds, [])).toBe(12);
  });

  it('counts a commit that retention has passed from the oldest message left', () => {
    expect(consumerLag([{ partition: 1, low: '5', high: '7' }], [{ partition: 1, offset: '2' }])).toBe(2);
  });

  it('never counts below 0, and a commit on a partition the topic no longer reports adds nothing', () => {
    expect(consumerLag([{ partition: 0, low: '0', high: '3' }], [{ partition: 0, offset: '5' }])).toBe(0);
    expect(consumerLag([], [{ partition: 3, offset: '1' }])).toBe(0);
  });

  it('counts only the partitions asked for, when given', () => {
    expect(consumerLag(bounds, [{ partition: 0, offset: '4' }], [0])).toBe(6);
    expect(consumerLag(bounds, [{ partition: 0, offset: '4' }], [1, 2])).toBe(2);
  });
});
