/**
 * Erasures replayed after a restore. A backup holds everyone who had an account the night it was taken; a person
 * erased since then would come back with it, key and all. Their deletion request is still on compliance's topic
 * (Kafka keeps it KAFKA_RETENTION_MS), so before the restored services start, every service's erasure group is moved
 * back to the backup's time and each service erases them again as it starts (erasure is idempotent, and the restored
 * databases' processed-event records end at the backup, so nothing is skipped as already handled).
 */
import { producerServices, topicOf } from '@haven/proto';
import type { Admin, Kafka } from 'kafkajs';
import { commitGroupPositions } from './kafka';
import { erasureGroupOf } from './kafka-access';

/** One partition of the deletion requests' topic: its oldest and next offsets, and the first offset at or after a time. */
export interface PartitionAtTime {
  partition: number;
  low: number;
  high: number;
  atTime: number;
}

/** Kafka no longer holds every deletion request since the backup: a restore would bring erased people back. */
export class ErasureHistoryGone extends Error {}

/** A service still consumes deletion requests: its group would go on from where it stands. */
export class ServicesStillRunning extends Error {}

/**
 * Where an erasure group reads from after a restore: the first record at or after the backup's time, or where it
 * stands if that is earlier (it has not handled those yet). Refuses when a partition may have lost a record made after
 * the backup to retention (its oldest record is the first at or after that time, and older ones are gone).
 */
export function replayPositions(
  partitions: readonly PartitionAtTime[],
  committed: ReadonlyMap<number, number>,
  since: Date,
): { partition: number; offset: number }[] {
  const gone = partitions.filter(({ low, atTime }) => low > 0 && atTime <= low);
  if (gone.length > 0) {
    throw new ErasureHistoryGone(
      `Kafka no longer holds every deletion request made since ${since.toISOString()} (partition${gone.length > 1 ? 's' : ''} ${gone
        .map(({ partition }) => partition)
        .join(', ')} of ${topicOf('compliance')} begin after it): restoring this backup would bring back people ` +
        'erased since. Restore a backup younger than KAFKA_RETENTION_MS, or restore into databases no service serves.',
    );
  }
  return partitions.map(({ partition, atTime }) => {
    const standing = committed.get(partition);
    return { partition, offset: standing === undefined || standing < 0 ? atTime : Math.min(standing, atTime) };
  });
}

export interface ErasureReplay {
  groups: string[];
  /** Records on compliance's topic since the backup, each handled again by every erasure group. */
  records: number;
}

/**
 * Moves every service's erasure group back to `since` (see replayPositions). The services must be stopped: a group
 * with members is refused, since its members would go on from where they stand.
 */
export async function replayErasuresSince(
  kafka: Kafka,
  since: Date,
  options: { topic?: string; groups?: readonly string[] } = {},
): Promise<ErasureReplay> {
  const topic = options.topic ?? topicOf('compliance');
  const groups = [...(options.groups ?? producerServices.map(erasureGroupOf))];
  const admin = kafka.admin();
  await admin.connect();
  try {
    const described = await admin.describeGroups(groups);
    const busy = described.groups.filter((group) => group.members.length > 0).map((group) => group.groupId);
    if (busy.length > 0) {
      throw new ServicesStillRunning(
        `stop every service first: ${busy.join(', ')} still ${busy.length > 1 ? 'have' : 'has'} members`,
      );
    }
    const partitions = await partitionsAtTime(admin, topic, since);
    const plans = await Promise.all(
      groups.map(async (groupId) => {
        const [standing] = await admin.fetchOffsets({ groupId, topics: [topic] });
        const committed = new Map(
          (standing?.partitions ?? []).map(({ partition, offset }) => [partition, Number(offset)] as const),
        );
        return { groupId, positions: replayPositions(partitions, committed, since) };
      }),
    );
    for (const { groupId, positions } of plans) {
      await commitGroupPositions(
        kafka,
        groupId,
        positions.map((position) => ({ topic, ...position })),
      );
    }
    return {
      groups,
      records: partitions.reduce((sum, { high, atTime }) => sum + (high - atTime), 0),
    };
  } finally {
    await admin.disconnect();
  }
}

async function partitionsAtTime(admin: Admin, topic: string, since: Date): Promise<PartitionAtTime[]> {
  const [bounds, atTime] = await Promise.all([
    admin.fetchTopicOffsets(topic),
    admin.fetchTopicOffsetsByTimestamp(topic, since.getTime()),
  ]);
  return bounds.map(({ partition, low, high }) => ({
    partition,
    low: Number(low),
    high: Number(high),
    atTime: Number(atTime.find((each) => each.partition === partition)?.offset ?? high),
  }));
}
