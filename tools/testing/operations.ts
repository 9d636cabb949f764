/**
 * Every operation a client can call, read from where each is declared (never a hand list): the root Query and
 * Mutation fields of the public supergraph (without `@inaccessible` ones, which only Haven's services reach),
 * and the routes of the REST facade's table. A test that walks them meets a new operation the day it is added.
 */
import {
  Kind,
  parse,
  print,
  type DocumentNode,
  type FieldDefinitionNode,
  type TypeNode,
  type TypeDefinitionNode,
} from 'graphql';
import { restRoutes, type HttpMethod } from '../../gateway/src/rest/routes';
import { readSupergraph } from '../../gateway/src/supergraph';

export type RootType = 'query' | 'mutation';

export interface GraphqlOperation {
  root: RootType;
  field: string;
  /** "query me", "mutation deleteAccount": how a test names it. */
  name: string;
  /** The field's arguments and their declared types, as written in the schema (`ID!`, `[ID!]!`). */
  args: Array<{ name: string; type: string; required: boolean }>;
  /** A document that calls the field alone, every argument a variable of the same name. */
  document: string;
}

export interface RestEndpoint {
  method: HttpMethod;
  path: string;
  /** "GET /api/user": how a test names it. */
  name: string;
}

const isInaccessible = (field: FieldDefinitionNode) =>
  field.directives?.some((directive) => directive.name.value === 'inaccessible') ?? false;

const namedTypeOf = (type: TypeNode): string =>
  type.kind === Kind.NAMED_TYPE ? type.name.value : namedTypeOf(type.type);

/** What a call selects: nothing for a scalar or an enum, the type's name for an object (so any object will do). */
function selectionFor(type: TypeNode, definitions: Map<string, TypeDefinitionNode>): string {
  const definition = definitions.get(namedTypeOf(type));
  const isLeaf =
    !definition || definition.kind === Kind.SCALAR_TYPE_DEFINITION || definition.kind === Kind.ENUM_TYPE_DEFINITION;
  return isLeaf ? '' : ' { __typename }';
}

function callDocument(root: RootType, field: FieldDefinitionNode, selection: string): string {
  const args = field.arguments ?? [];
  const variables = args.map((arg) => `$${arg.name.value}: ${print(arg.type)}`).join(', ');
  const passed = args.map((arg) => `${arg.name.value}: $${arg.name.value}`).join(', ');
  return `${root}${variables ? `(${variables})` : ''} { ${field.name.value}${passed ? `(${passed})` : ''}${selection} }`;
}

/** The public root fields of a supergraph (the gateway's own by default), queries first. */
export function publicGraphqlOperations(supergraph: DocumentNode = parse(readSupergraph())): GraphqlOperation[] {
  const definitions = new Map<string, TypeDefinitionNode>();
  for (const definition of supergraph.definitions) {
    if ('name' in definition && definition.name && definition.kind.endsWith('Definition')) {
      definitions.set(definition.name.value, definition as TypeDefinitionNode);
    }
  }
  const roots: Array<[RootType, string]> = [
    ['query', 'Query'],
    ['mutation', 'Mutation'],
  ];
  return roots.flatMap(([root, typeName]) => {
    const definition = definitions.get(typeName);
    if (definition?.kind !== Kind.OBJECT_TYPE_DEFINITION) return [];
    return (definition.fields ?? [])
      .filter((field) => !isInaccessible(field))
      .map((field) => ({
        root,
        field: field.name.value,
        name: `${root} ${field.name.value}`,
        args: (field.arguments ?? []).map((arg) => ({
          name: arg.name.value,
          type: print(arg.type),
          required: arg.type.kind === Kind.NON_NULL_TYPE,
        })),
        document: callDocument(root, field, selectionFor(field.type, definitions)),
      }));
  });
}

/** Every route of the REST facade's table (gateway/src/rest/routes), in its order. */
export function restEndpoints(): RestEndpoint[] {
  return restRoutes.map(({ method, path }) => ({ method, path, name: `${method} ${path}` }));
}
