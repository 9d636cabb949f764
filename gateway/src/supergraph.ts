import { composeServices } from '@apollo/composition';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'graphql';

/** The five subgraphs, each with the URL it listens on in development. */
export const subgraphs = [
  { name: 'user', port: 4001 },
  { name: 'quote', port: 4002 },
  { name: 'billing', port: 4003 },
  { name: 'notification', port: 4004 },
  { name: 'compliance', port: 4005 },
] as const;

export type SubgraphName = (typeof subgraphs)[number]['name'];

const repoRoot = join(__dirname, '..', '..');
export const supergraphPath = join(__dirname, '..', 'supergraph.graphql');

/** Composes the subgraph schemas into the supergraph SDL the gateway serves; throws with every composition error. */
export function composeSupergraph(): string {
  const result = composeServices(
    subgraphs.map(({ name, port }) => ({
      name,
      url: `http://127.0.0.1:${port}/graphql`,
      typeDefs: parse(readFileSync(join(repoRoot, 'services', name, 'src', 'schema.graphql'), 'utf8')),
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
