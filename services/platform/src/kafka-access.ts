/**
 * What each service may do on Kafka, in one place: the consumer groups it runs and the topics each reads, and from
 * them the ACLs of its principal. A service publishes on its own topic only, so a forged `account.deletion_requested`
 * cannot come from any service but compliance: the broker refuses it (docs/security.md).
 */
import { deadLetterTopicOf, producerServices, topicOf, type ProducerService } from '@haven/proto';
import { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes, type AclEntry } from 'kafkajs';

/** The consumer group that erases a deleted account's data in a service: it reads compliance's deletion requests. */
export const erasureGroupOf = (service: ProducerService) => `${service}-erasure`;

const erasureGroup = (service: ProducerService) => ({ [erasureGroupOf(service)]: [topicOf('compliance')] });

/** The consumer groups each service runs and the topics each reads; a service starts no consumer not listed here. */
export const consumerGroupsOf: Readonly<Record<ProducerService, Readonly<Record<string, readonly string[]>>>> = {
  user: { 'user-entitlements': [topicOf('billing')], ...erasureGroup('user') },
  quote: {
    'quote-time-zones': [topicOf('user')],
    'quote-entitlements': [topicOf('billing')],
    ...erasureGroup('quote'),
  },
  billing: { ...erasureGroup('billing') },
  notification: {
    notification: [topicOf('user'), topicOf('notification')],
    'notification-newsletter': [topicOf('notification')],
    'notification-billing': [topicOf('billing')],
    'notification-security': [topicOf('user')],
    'notification-weekly-summary': [topicOf('quote')],
    ...erasureGroup('notification'),
  },
  compliance: {
    'compliance-saga': producerServices.map((service) => topicOf(service)),
    ...erasureGroup('compliance'),
  },
};

/** Every group of every service and the topics it reads. */
export function everyConsumerGroup(): Record<string, string[]> {
  return Object.fromEntries(
    Object.values(consumerGroupsOf).flatMap((groups) =>
      Object.entries(groups).map(([groupId, topics]) => [groupId, [...topics]]),
    ),
  );
}

/** Every topic Haven uses: each service's own, and each consumer group's dead-letter topic. */
export function havenTopics(): string[] {
  return [
    ...producerServices.map((service) => topicOf(service)),
    ...Object.keys(everyConsumerGroup()).map((groupId) => deadLetterTopicOf(groupId)),
  ];
}

/** A consumer a service starts is one its principal may run: its group listed for it, reading the listed topics. */
export function undeclaredConsumer(
  service: ProducerService,
  consumer: { groupId: string; topics: readonly string[] },
): string | null {
  const declared = consumerGroupsOf[service][consumer.groupId];
  if (!declared) return `${service} runs consumer group ${consumer.groupId}, which kafka-access.ts does not list`;
  const same = declared.length === consumer.topics.length && declared.every((topic) => consumer.topics.includes(topic));
  return same
    ? null
    : `${consumer.groupId} reads ${consumer.topics.join(', ')}; kafka-access.ts lists ${declared.join(', ')}`;
}

/** A service's principal, as its Kafka user is named (Strimzi's KafkaUser, SCRAM). */
export const kafkaPrincipalOf = (service: ProducerService) => `User:haven-${service}`;

/** The SCRAM user name a principal signs in with: the principal without its `User:` type. */
export const kafkaUserNameOf = (principal: string) => principal.replace(/^User:/, '');

/** An allowing ACL of `principal`, on a resource named literally, from any host. */
const aclEntryOf =
  (principal: string) =>
  (resourceType: AclResourceTypes, resourceName: string, operation: AclOperationTypes): AclEntry => ({
    resourceType,
    resourceName,
    resourcePatternType: ResourcePatternTypes.LITERAL,
    principal,
    host: '*',
    operation,
    permissionType: AclPermissionTypes.ALLOW,
  });

/** The operator's user for a restore (backup-cli.ts), never a service's. */
export const restorePrincipal = 'User:haven-restore';

/**
 * What a restore may do on Kafka: read where compliance's topic and each erasure group stand, and move the groups
 * back to the backup's time (erasure-replay.ts). It can neither publish nor read another group's position.
 */
export function restoreAcls(): AclEntry[] {
  const entry = aclEntryOf(restorePrincipal);
  const { READ, DESCRIBE } = AclOperationTypes;
  return [
    entry(AclResourceTypes.TOPIC, topicOf('compliance'), READ),
    entry(AclResourceTypes.TOPIC, topicOf('compliance'), DESCRIBE),
    ...producerServices.flatMap((service) => [
      entry(AclResourceTypes.GROUP, erasureGroupOf(service), READ),
      entry(AclResourceTypes.GROUP, erasureGroupOf(service), DESCRIBE),
    ]),
  ];
}

/**
 * The ACLs of a service's principal: publish on its own topic (and create and size it); read, as its own groups,
 * the topics they read; create, write and read its groups' dead-letter topics. Nothing else: no other topic is
 * written, no other group joined.
 */
export function kafkaAclsOf(service: ProducerService): AclEntry[] {
  const entry = aclEntryOf(kafkaPrincipalOf(service));
  const onTopic = (topic: string, operations: AclOperationTypes[]) =>
    operations.map((operation) => entry(AclResourceTypes.TOPIC, topic, operation));
  const { WRITE, READ, DESCRIBE, CREATE, DESCRIBE_CONFIGS, ALTER_CONFIGS, ALTER } = AclOperationTypes;
  const owned = [WRITE, DESCRIBE, CREATE, DESCRIBE_CONFIGS, ALTER_CONFIGS];
  const groups = Object.entries(consumerGroupsOf[service]);
  const read = [...new Set(groups.flatMap(([, topics]) => topics))];
  const entries = [
    // ALTER: the notification service sizes its topic's partitions for the newsletter fan-out.
    ...onTopic(topicOf(service), [...owned, ALTER]),
    ...read.flatMap((topic) => onTopic(topic, [READ, DESCRIBE, DESCRIBE_CONFIGS])),
    ...groups.flatMap(([groupId]) => [
      entry(AclResourceTypes.GROUP, groupId, READ),
      entry(AclResourceTypes.GROUP, groupId, DESCRIBE),
      ...onTopic(deadLetterTopicOf(groupId), [...owned, READ]),
    ]),
  ];
  // A group reading the service's own topic asks again for what the topic's owner has: each ACL once.
  const seen = new Set<string>();
  return entries.filter((acl) => {
    const key = `${acl.resourceType}/${acl.resourceName}/${acl.operation}`;
    return !seen.has(key) && Boolean(seen.add(key));
  });
}
