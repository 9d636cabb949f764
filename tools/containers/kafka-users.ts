/**
 * Kubernetes' Kafka users, written from the one list of what each service may do on Kafka (kafkaAclsOf in
 * services/platform/src/kafka-access.ts): a Strimzi KafkaUser per service, signing in with SCRAM-SHA-512, whose ACLs
 * are that list's. Strimzi's user operator makes the user and a Secret of the same name holding its password.
 *
 *   npx tsx tools/containers/kafka-users.ts     # rewrites k8s/base/kafka-users.yaml after a change to the list
 *
 * tools/test/deploy-config.test.ts holds the rendered manifests equal to what this prints.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AclOperationTypes, AclResourceTypes, ResourcePatternTypes, type AclEntry } from 'kafkajs';
import { stringify } from 'yaml';
import { producerServices, type ProducerService } from '@haven/proto';
import {
  kafkaAclsOf,
  kafkaPrincipalOf,
  kafkaUserNameOf,
  restoreAcls,
  restorePrincipal,
} from '../../services/platform/src/kafka-access';
import { repoRoot } from '../infra/paths';

export const kafkaUsersFile = join('k8s', 'base', 'kafka-users.yaml');

/** A rule of Strimzi's simple authorization: one resource, the operations allowed on it. */
export interface StrimziAcl {
  resource: { type: string; name: string; patternType: string };
  operations: string[];
  host: string;
}

/** An enum value's name (kafkajs's enums are plain objects at run time: no reverse mapping). */
const nameOf = (values: Record<string, number | string>, value: number): string => {
  const name = Object.keys(values).find((key) => values[key] === value);
  if (!name) throw new Error(`no name for ${value}`);
  return name;
};

/** Kafka's names as Strimzi spells them: DESCRIBE_CONFIGS → DescribeConfigs. */
const pascal = (name: string) =>
  name
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

/** The KafkaUser's name (and its password Secret's): the principal without `User:`. */
export const serviceKafkaUserName = (service: ProducerService) => kafkaUserNameOf(kafkaPrincipalOf(service));

/** The restore's KafkaUser (an operator's, for backup-cli.ts's restore): the restore principal without `User:`. */
export const restoreKafkaUserName = kafkaUserNameOf(restorePrincipal);

/** ACL entries as Strimzi's rules, one rule per resource, in the list's order. */
export function strimziAclsOf(acls: readonly AclEntry[]): StrimziAcl[] {
  const rules = new Map<string, StrimziAcl>();
  for (const acl of acls) {
    const resource = {
      type: nameOf(AclResourceTypes, acl.resourceType).toLowerCase(),
      name: acl.resourceName,
      patternType: nameOf(ResourcePatternTypes, acl.resourcePatternType).toLowerCase(),
    };
    const key = `${resource.type}/${resource.patternType}/${resource.name}/${acl.host}`;
    const rule = rules.get(key) ?? { resource, operations: [], host: acl.host };
    rule.operations.push(pascal(nameOf(AclOperationTypes, acl.operation)));
    rules.set(key, rule);
  }
  return [...rules.values()];
}

function kafkaUser(name: string, acls: readonly AclEntry[]) {
  return {
    apiVersion: 'kafka.strimzi.io/v1beta2',
    kind: 'KafkaUser',
    metadata: { name, labels: { 'strimzi.io/cluster': 'haven', 'app.kubernetes.io/part-of': 'haven' } },
    spec: {
      authentication: { type: 'scram-sha-512' },
      authorization: { type: 'simple', acls: strimziAclsOf(acls) },
    },
  };
}

/** The KafkaUser of one service, as k8s/base/kafka-users.yaml holds it. */
export const kafkaUserOf = (service: ProducerService) => kafkaUser(serviceKafkaUserName(service), kafkaAclsOf(service));

/** The restore's KafkaUser: it may only move the erasure groups back (restoreAcls). */
export const restoreKafkaUser = () => kafkaUser(restoreKafkaUserName, restoreAcls());

export function kafkaUsersManifest(): string {
  const header = [
    '# One Kafka user per service (Strimzi; SCRAM-SHA-512): what each may do on Kafka, and nothing else. Written from',
    '# kafkaAclsOf (services/platform/src/kafka-access.ts) by `npx tsx tools/containers/kafka-users.ts`: edit the list',
    '# there, not this file. Strimzi keeps each password in a Secret named like the user (key `password`), which only',
    '# that service reads (KAFKA_SASL_PASSWORD, k8s/base/service/service.yaml). The last, haven-restore, is an',
    '# operator\'s for a restore (docs/operations.md, "Restoring"), read by no workload.',
  ].join('\n');
  const users = [...producerServices.map(kafkaUserOf), restoreKafkaUser()];
  return `${header}\n${users.map((user) => `---\n${stringify(user, { singleQuote: true })}`).join('')}`;
}

if (require.main === module) {
  writeFileSync(join(repoRoot, kafkaUsersFile), kafkaUsersManifest());
  console.log(`wrote ${kafkaUsersFile}`);
}
