import type { Admin, Kafka } from 'kafkajs';
import { commitGroupPositions, createKafka, createLogger, everyConsumerGroup } from '@haven/platform';
import { eventually } from './eventually';

/** The consumer groups of Haven's services and the topics each reads (the services' own list). */
export const havenConsumerGroups: Record<string, string[]> = everyConsumerGroup();

/** Commits the end of each of `topics` as `groupId`'s position. */
async function moveGroupToEnd(kafka: Kafka, admin: Admin, groupId: string, topics: string[]): Promise<void> {
  const ends = await Promise.all(
    topics.map(async (topic) =>
      (await admin.fetchTopicOffsets(topic)).map(({ partition, high }) => ({ topic, partition, offset: Number(high) })),
    ),
  );
  await commitGroupPositions(kafka, groupId, ends.flat());
}

/**
 * Moves each of Haven's consumer groups to the end of the topics it reads, so the Haven a test file starts
 * handles its own events and not the backlog earlier files of its world left behind (one file publishes
 * hundreds of synthetic user events; the next files' Havens spent minutes on them while a verification e-mail
 * waited). A group with members (another Haven of the same file still running) is left as it is; a broker that
 * does not answer in time leaves the groups not yet moved as they are.
 */
export async function skipEarlierFilesEvents(
  brokers: string[],
  consumerGroups: Record<string, string[]> = havenConsumerGroups,
): Promise<void> {
  const kafka = createKafka('haven-test-offsets', brokers, createLogger('test-offsets', 'silent'));
  const admin = kafka.admin();
  const reset = async () => {
    await admin.connect();
    const { groups } = await admin.describeGroups(Object.keys(consumerGroups));
    const idle = groups.filter((each) => each.members.length === 0);
    await Promise.all(
      idle.map((group) => moveGroupToEnd(kafka, admin, group.groupId, consumerGroups[group.groupId] ?? [])),
    );
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([reset(), new Promise((resolve) => (timer = setTimeout(resolve, 15_000)))]);
  } catch {
    // A group that gained a member meanwhile, or a broker away: its Haven reads from where the group stood.
  } finally {
    clearTimeout(timer);
    await admin.disconnect().catch(() => undefined);
  }
}

/** A running Haven as far as its consumers' readiness goes: each service's GraphQL address. */
interface RunningServices {
  services: Record<string, { url: string }>;
}

/** Whether every event consumer of a Haven is in its group now (each service's /readyz says so). */
async function everyConsumerJoined(running: RunningServices): Promise<boolean> {
  const answers = await Promise.all(
    Object.values(running.services).map(async (service) => {
      const response = await fetch(service.url.replace('/graphql', '/readyz'));
      return ((await response.json()) as { events?: boolean }).events === true;
    }),
  );
  return answers.every(Boolean);
}

/**
 * Waits until every consumer of a Haven is back in its group after a Kafka outage: stopping a Haven while its
 * consumers still rejoin would leave kafkajs retrying after the suite.
 */
export const untilEveryConsumerJoined = (running: RunningServices) =>
  eventually('every consumer back in its group', () => everyConsumerJoined(running), {
    timeoutMs: 120_000,
    intervalMs: 500,
  });
