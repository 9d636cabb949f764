/**
 * The relay's bookkeeping, without I/O: which request carries which entity's events, and how far an
 * entity's log is out once some of its events are on their topics.
 */

export interface LoggedEvent {
  eventId: string;
  topic: string;
  key: string;
}

/** One request to Kafka: the events of several entities for one partition of one topic, each entity's in order. */
export interface PartitionBatch<Owner, Event extends LoggedEvent> {
  topic: string;
  partition: number;
  parts: Array<{ owner: Owner; events: Event[] }>;
}

/**
 * Groups events by the partition they go to. Kafka accepts or refuses a partition's records together,
 * so one request per partition is what lets the relay tell which events are out when a batch partly fails.
 */
export function groupByPartition<Owner, Event extends LoggedEvent>(
  logs: Array<{ owner: Owner; events: Event[] }>,
  partitionOf: (topic: string, key: string) => number,
): Array<PartitionBatch<Owner, Event>> {
  const batches = new Map<string, PartitionBatch<Owner, Event>>();
  for (const { owner, events } of logs) {
    for (const event of events) {
      const partition = partitionOf(event.topic, event.key);
      const id = `${partition}:${event.topic}`;
      let batch = batches.get(id);
      if (!batch) {
        batch = { topic: event.topic, partition, parts: [] };
        batches.set(id, batch);
      }
      const last = batch.parts.at(-1);
      if (last?.owner === owner) last.events.push(event);
      else batch.parts.push({ owner, events: [event] });
    }
  }
  return [...batches.values()];
}

export interface LogProgress {
  /** Every event up to this version is out: the publish mark's new position. */
  publishedUpTo: number;
  /** How many of the tail's first events that covers; they leave the entity's document. */
  prefix: number;
  /** Events past that prefix that are out already, kept in the mark so that no later pass sends them again. */
  alsoPublished: string[];
  /** The whole tail is out. */
  complete: boolean;
}

/**
 * Where an entity's log stands: `tail` is its log past the mark, the first of them at `firstTailVersion`;
 * `isOut` says which events are on their topics (this pass's, and those an earlier pass remembered).
 */
export function logProgress(
  tail: Array<{ eventId: string }>,
  firstTailVersion: number,
  isOut: (eventId: string) => boolean,
): LogProgress {
  let prefix = 0;
  while (prefix < tail.length && isOut(tail[prefix]!.eventId)) prefix += 1;
  const alsoPublished = tail
    .slice(prefix)
    .filter((event) => isOut(event.eventId))
    .map((event) => event.eventId);
  return {
    publishedUpTo: firstTailVersion + prefix - 1,
    prefix,
    alsoPublished,
    complete: prefix === tail.length,
  };
}
