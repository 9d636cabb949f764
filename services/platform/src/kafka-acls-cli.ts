/**
 * Gives every service's Kafka user the ACLs kafkaAclsOf lists, takes away any the list no longer holds, and creates
 * every Haven topic (a consumer may not create a topic another service owns, so without it a consumer waits for the
 * owner's first start): run by docker-compose.yml's kafka-acls one-shot, signed in as the broker's admin, before any
 * service starts (Kubernetes gives the same list to Strimzi's KafkaUsers, k8s/base/kafka-users.yaml). Bundled into the
 * user service's image:
 *
 *   KAFKA_BROKERS=kafka:9092 KAFKA_SASL_USERNAME=admin KAFKA_SASL_PASSWORD_FILE=<file> node /app/tools/kafka-acls.js
 */
import { producerServices } from '@haven/proto';
import { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes, type AclEntry } from 'kafkajs';
import { z } from 'zod';
import { baseConfigShape, loadConfig } from './config';
import { createKafka, ensureTopics, kafkaCredentialsOf } from './kafka';
import { havenTopics, kafkaAclsOf, kafkaPrincipalOf } from './kafka-access';
import { createLogger } from './logger';

const aclKey = (acl: AclEntry) =>
  [acl.principal, acl.host, acl.resourceType, acl.resourcePatternType, acl.resourceName, acl.operation].join('|') +
  `|${acl.permissionType}`;

async function main(): Promise<void> {
  const base = baseConfigShape('user');
  const config = loadConfig({
    LOG_LEVEL: base.LOG_LEVEL,
    KAFKA_BROKERS: base.KAFKA_BROKERS,
    KAFKA_SASL_USERNAME: z.string().min(1),
    KAFKA_SASL_PASSWORD: z.string().min(1),
    KAFKA_TOPIC_PARTITIONS: base.KAFKA_TOPIC_PARTITIONS,
    KAFKA_RETENTION_MS: base.KAFKA_RETENTION_MS,
  });
  const log = createLogger('kafka-acls', config.LOG_LEVEL);
  const kafka = createKafka('haven-kafka-acls', config.KAFKA_BROKERS, log, kafkaCredentialsOf(config));
  const admin = kafka.admin();
  await admin.connect();
  try {
    const wanted = producerServices.flatMap((service) => kafkaAclsOf(service));
    await admin.createAcls({ acl: wanted });
    // An ACL the list dropped would otherwise outlive it on the broker: what a service may do is the list, exactly.
    const listed = new Set(wanted.map(aclKey));
    const stale: AclEntry[] = [];
    for (const service of producerServices) {
      const { resources } = await admin.describeAcls({
        resourceType: AclResourceTypes.ANY,
        resourcePatternType: ResourcePatternTypes.ANY,
        principal: kafkaPrincipalOf(service),
        operation: AclOperationTypes.ANY,
        permissionType: AclPermissionTypes.ANY,
      });
      for (const { acls, ...resource } of resources)
        for (const acl of acls) if (!listed.has(aclKey({ ...resource, ...acl }))) stale.push({ ...resource, ...acl });
    }
    if (stale.length > 0) await admin.deleteAcls({ filters: stale });
    log.info({ acls: wanted.length, removed: stale.length }, 'kafka: every service has the ACLs kafka-access.ts lists');
  } finally {
    await admin.disconnect();
  }
  const topics = havenTopics();
  await ensureTopics(kafka, topics, {
    partitions: config.KAFKA_TOPIC_PARTITIONS,
    retentionMs: config.KAFKA_RETENTION_MS,
  });
  log.info({ topics: topics.length }, 'kafka: every Haven topic exists');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
