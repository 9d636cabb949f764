import { deadLetterTopicOf, producerServices, topicOf } from '@haven/proto';
import { AclOperationTypes, AclResourceTypes } from 'kafkajs';
import { consumerGroupsOf, kafkaAclsOf, kafkaPrincipalOf, undeclaredConsumer } from '../src/kafka-access';

const written = (service: (typeof producerServices)[number]) =>
  kafkaAclsOf(service)
    .filter((acl) => acl.resourceType === AclResourceTypes.TOPIC && acl.operation === AclOperationTypes.WRITE)
    .map((acl) => acl.resourceName)
    .sort();

describe("each service's Kafka principal", () => {
  it("writes its own topic and its groups' dead letters, and no other service's topic", () => {
    for (const service of producerServices) {
      const deadLetters = Object.keys(consumerGroupsOf[service]).map(deadLetterTopicOf);
      expect(written(service)).toEqual([topicOf(service), ...deadLetters].sort());
    }
  });

  it('reads, as its own groups only, the topics its groups read', () => {
    const acls = kafkaAclsOf('quote');
    const groups = acls.filter((acl) => acl.resourceType === AclResourceTypes.GROUP).map((acl) => acl.resourceName);
    expect([...new Set(groups)].sort()).toEqual(['quote-entitlements', 'quote-erasure', 'quote-time-zones']);
    const read = acls
      .filter((acl) => acl.resourceType === AclResourceTypes.TOPIC && acl.operation === AclOperationTypes.READ)
      .map((acl) => acl.resourceName);
    expect(read).toEqual(expect.arrayContaining([topicOf('user'), topicOf('billing'), topicOf('compliance')]));
    expect(read).not.toContain(topicOf('notification'));
    expect(acls.every((acl) => acl.principal === kafkaPrincipalOf('quote'))).toBe(true);
  });

  it('lists each ACL once', () => {
    const acls = kafkaAclsOf('notification');
    const keys = acls.map((acl) => `${acl.resourceType}/${acl.resourceName}/${acl.operation}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('a consumer a service starts', () => {
  it('is one its principal may run: its group listed for it, reading exactly the listed topics', () => {
    expect(undeclaredConsumer('quote', { groupId: 'quote-time-zones', topics: [topicOf('user')] })).toBeNull();
    expect(undeclaredConsumer('quote', { groupId: 'quote-snooping', topics: [topicOf('user')] })).toMatch(
      /quote runs consumer group quote-snooping, which kafka-access.ts does not list/,
    );
    expect(
      undeclaredConsumer('quote', { groupId: 'quote-time-zones', topics: [topicOf('user'), topicOf('billing')] }),
    ).toMatch(/quote-time-zones reads/);
  });
});
