import { groupByPartition, logProgress } from '../src/outbox-progress';

const event = (eventId: string, key: string, topic = 'user') => ({ eventId, key, topic });

describe('groupByPartition', () => {
  // Keys name their partition here: "p0-…" goes to partition 0.
  const partitionOf = (_topic: string, key: string) => Number(key.slice(1, 2));

  it('makes one request per topic and partition, each entity’s events together and in log order', () => {
    const batches = groupByPartition(
      [
        { owner: 'a', events: [event('a1', 'p0-a'), event('a2', 'p0-a'), event('a3', 'p0-a', 'quote')] },
        { owner: 'b', events: [event('b1', 'p1-b')] },
        { owner: 'c', events: [event('c1', 'p0-c'), event('c2', 'p0-c')] },
      ],
      partitionOf,
    );
    expect(
      batches.map(({ topic, partition, parts }) => ({
        topic,
        partition,
        parts: parts.map(({ owner, events }) => [owner, events.map((e) => e.eventId)]),
      })),
    ).toEqual([
      {
        topic: 'user',
        partition: 0,
        parts: [
          ['a', ['a1', 'a2']],
          ['c', ['c1', 'c2']],
        ],
      },
      { topic: 'quote', partition: 0, parts: [['a', ['a3']]] },
      { topic: 'user', partition: 1, parts: [['b', ['b1']]] },
    ]);
  });

  it('sends nothing for entities with nothing to send', () => {
    expect(groupByPartition([{ owner: 'a', events: [] }], partitionOf)).toEqual([]);
  });
});

describe('logProgress', () => {
  const tail = [{ eventId: 'e5' }, { eventId: 'e6' }, { eventId: 'e7' }];
  const outOf =
    (...ids: string[]) =>
    (eventId: string) =>
      ids.includes(eventId);

  it('moves the mark to the end of a log that is out', () => {
    expect(logProgress(tail, 5, outOf('e5', 'e6', 'e7'))).toEqual({
      publishedUpTo: 7,
      prefix: 3,
      alsoPublished: [],
      complete: true,
    });
  });

  it('moves the mark past the head that is out and remembers what went out after a refused event', () => {
    expect(logProgress(tail, 5, outOf('e5', 'e7'))).toEqual({
      publishedUpTo: 5,
      prefix: 1,
      alsoPublished: ['e7'],
      complete: false,
    });
  });

  it('leaves the mark where it was when the first event is refused', () => {
    expect(logProgress(tail, 5, outOf('e6'))).toEqual({
      publishedUpTo: 4,
      prefix: 0,
      alsoPublished: ['e6'],
      complete: false,
    });
  });

  it('counts an empty tail as out, up to the version before it', () => {
    expect(logProgress([], 8, outOf())).toEqual({ publishedUpTo: 7, prefix: 0, alsoPublished: [], complete: true });
  });
});
