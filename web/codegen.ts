/**
 * GraphQL Code Generator for the web app: the TypeScript types of every operation in
 * `src/**\/*.graphql`, checked against the gateway's API schema, written to
 * `src/graphql/operations.generated.ts` (checked in). `npm run -w web codegen` writes it;
 * `npm run -w web codegen:check` fails when it is stale.
 */
import { readFileSync } from 'node:fs';
import { Supergraph } from '@apollo/federation-internals';
import type { CodegenConfig } from '@graphql-codegen/cli';
import { printSchema } from 'graphql';

// The supergraph also holds the federation machinery (join__*, link__*); browsers only ever see the API
// schema derived from it, the same one the gateway serves.
const supergraphSdl = readFileSync(new URL('../gateway/supergraph.graphql', import.meta.url), 'utf8');
const apiSchemaSdl = printSchema(Supergraph.build(supergraphSdl).apiSchema().toGraphQLJSSchema());

const config: CodegenConfig = {
  schema: apiSchemaSdl,
  documents: ['src/**/*.graphql'],
  ignoreNoDocuments: false,
  generates: {
    'src/graphql/operations.generated.ts': {
      // Per operation: its result and variables types, and a TypedDocumentNode Apollo Client infers them from.
      plugins: ['typescript-operations', 'typed-document-node'],
      config: {
        useTypeImports: true,
        strictScalars: true,
        scalars: { ID: 'string' },
        enumType: 'string-literal',
        skipTypeNameForRoot: true,
      },
    },
  },
};

export default config;
