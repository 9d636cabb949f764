import { composeServices } from '@apollo/composition';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { localGraphqlUrl, readSubgraphSchema, serviceCatalog, type ServiceName } from '@haven/platform';

/** The subgraphs are the catalog's services, each with the URL it listens on in development. */
export const subgraphs = serviceCatalog;

export type SubgraphName = ServiceName;

const repoRoot = join(__dirname, '..', '..');
export const supergraphPath = join(__dirname, '..', 'supergraph.graphql');

/** Composes the subgraph schemas into the supergraph SDL the gateway serves; throws with every composition error. */
export function composeSupergraph(): string {
  const result = composeServices(
    subgraphs.map(({ name, dir, port }) => ({
      name,
      url: localGraphqlUrl(port),
      typeDefs: readSubgraphSchema(join(repoRoot, dir, 'src', 'schema.graphql')),
    })),
  );
  if (result.errors) {
    throw new Error(`Supergraph composition failed:\n${result.errors.map((error) => `- ${error.message}`).join('\n')}`);
  }
  return `${result.supergraphSdl.trim()}\n`;
}

export function readSupergraph(): string {
  return readFileSync(supergraphPath, 'utf8');
}
