import { createKafka, createLogger, serviceNames } from '@haven/platform';
import { producerServices, topicOf } from '@haven/proto';

/** The consumer groups of Haven's services and the topics each reads. */
export const havenConsumerGroups: Record<string, string[]> = {
  notification: [topicOf('user'), topicOf('notification')],
  'notification-newsletter': [topicOf('notification')],
  'notification-billing': [topicOf('billing')],
  'notification-security': [topicOf('user')],
  'notification-weekly-summary': [topicOf('quote')],
  'quote-time-zones': [topicOf('user')],
  'quote-entitlements': [topicOf('billing')],
  'compliance-saga': producerServices.map((service) => topicOf(service)),
  ...Object.fromEntries(serviceNames.map((service) => [`${service}-erasure`, [topicOf('compliance')]])),
};

/**
 * Moves each of Haven's consumer groups to the end of the topics it reads, so the Haven a test file starts
 * handles its own events and not the backlog earlier files of its world left behind (one file publishes
 * hundreds of synthetic user events; the next files' Havens spent minutes on them while a verification e-mail
 * waited). A group with members (another Haven of the same file still running) is left as it is; a broker that
 * does not answer in time leaves every group as it is.
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
    for (const group of groups.filter((each) => each.members.length === 0)) {
      for (const topic of consumerGroups[group.groupId] ?? []) {
        await admin.resetOffsets({ groupId: group.groupId, topic, earliest: false });
      }
    }
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
