/** A partition's bounds as the broker reports them (kafkajs's `fetchTopicOffsets`). */
export interface PartitionBounds {
  partition: number;
  /** The offset the next message will take. */
  high: string;
  /** The oldest offset the partition still holds (older messages went with retention). */
  low: string;
}

/** A group's committed position on a partition (kafkajs's `fetchOffsets`): '-1' when it has committed none. */
export interface CommittedOffset {
  partition: number;
  offset: string;
}

/**
 * Messages past a group's committed offsets on a topic, summed over its partitions (or only `partitions`, when
 * given). A partition without a commit, or whose commit retention has passed, counts from the oldest message it
 * still holds: the group reads from there.
 */
export function consumerLag(
  bounds: readonly PartitionBounds[],
  committed: readonly CommittedOffset[],
  partitions?: readonly number[],
): number {
  const wanted = partitions ? new Set(partitions) : null;
  let lag = 0;
  for (const { partition, high, low } of bounds) {
    if (wanted && !wanted.has(partition)) continue;
    const done = Number(committed.find((entry) => entry.partition === partition)?.offset ?? '-1');
    const from = done < 0 ? Number(low) : Math.max(done, Number(low));
    lag += Math.max(0, Number(high) - from);
  }
  return lag;
}
