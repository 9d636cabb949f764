/**
 * Every operation a client can call, read from where each is declared (never a hand list), so a test that walks
 * them meets a new one the day it is added: the root Query and Mutation fields of the public supergraph
 * (`gateway/supergraph.graphql`, minus `@inaccessible` fields, which only Haven's services reach) and the REST
 * facade's route table (`gateway/src/rest/routes`), each route's inputs found by asking its own `variables`
 * function where a key of the body, the query string or the path ends up.
 */
import {
  buildSchema,
  getNamedType,
  getNullableType,
  isInputObjectType,
  isLeafType,
  isNonNullType,
  parse,
  typeFromAST,
  type FieldDefinitionNode,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
  type InputValueDefinitionNode,
  type OperationDefinitionNode,
  type VariableDefinitionNode,
} from 'graphql';
import { restRoutes, type HttpMethod, type RestRoute } from '../../gateway/src/rest/routes';
import { readSupergraph } from '../../gateway/src/supergraph';

let cachedSchema: GraphQLSchema | undefined;

/** The checked-in supergraph as a schema (its join directives included; they change no input type). */
export function supergraphSchema(): GraphQLSchema {
  cachedSchema ??= buildSchema(readSupergraph());
  return cachedSchema;
}

const isInaccessible = (node: FieldDefinitionNode | InputValueDefinitionNode | undefined | null) =>
  node?.directives?.some((directive) => directive.name.value === 'inaccessible') ?? false;

/** A GraphQL input the public API accepts: its name and type (arguments and input object fields alike). */
export interface PublicInput {
  name: string;
  type: GraphQLInputType;
  /** Declared with a default: leaving it out is valid. */
  hasDefault: boolean;
}

export interface PublicMutation {
  name: string;
  args: PublicInput[];
  /** The field's return type needs a selection (an object), or is a scalar (`logout: Boolean!`). */
  returnsObject: boolean;
  field: GraphQLField<unknown, unknown>;
}

const publicInputOf = (arg: GraphQLArgument): PublicInput => ({
  name: arg.name,
  type: arg.type,
  hasDefault: arg.defaultValue !== undefined,
});

export type RootType = 'query' | 'mutation';

/** The fields of a root type that clients can call (the supergraph's, minus `@inaccessible` ones), in schema order. */
function publicRootFields(root: RootType): Array<GraphQLField<unknown, unknown>> {
  const schema = supergraphSchema();
  const type = root === 'query' ? schema.getQueryType() : schema.getMutationType();
  return Object.values(type?.getFields() ?? {}).filter((field) => !isInaccessible(field.astNode));
}

/** Every root Mutation field clients can call, by name. */
export function publicMutations(): PublicMutation[] {
  return publicRootFields('mutation')
    .map((field) => ({
      name: field.name,
      args: field.args.filter((arg) => !isInaccessible(arg.astNode)).map(publicInputOf),
      returnsObject: !isLeafType(getNamedType(field.type)),
      field,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

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

/** A document calling `field` alone; an object result selects `__typename` (any object will do). */
function callDocument(root: RootType, field: GraphQLField<unknown, unknown>): string {
  const variables = field.args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
  const passed = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
  return `${root}${variables ? `(${variables})` : ''} { ${field.name}${passed ? `(${passed})` : ''}${selection} }`;
}

/** Every public root field, queries first. */
export function publicGraphqlOperations(): GraphqlOperation[] {
  return (['query', 'mutation'] as const).flatMap((root) =>
    publicRootFields(root).map((field) => ({
      root,
      field: field.name,
      name: `${root} ${field.name}`,
      args: field.args.map((arg) => ({ name: arg.name, type: String(arg.type), required: isNonNullType(arg.type) })),
      document: callDocument(root, field),
    })),
  );
}

export interface RestEndpoint {
  method: HttpMethod;
  path: string;
  /** "GET /api/user": how a test names it. */
  name: string;
}

/** Every route of the REST facade's table, in its order. */
export function restEndpoints(): RestEndpoint[] {
  return restRoutes.map(({ method, path }) => ({ method, path, name: `${method} ${path}` }));
}

/** The fields of an input object type that the public API accepts. */
export function publicFieldsOf(type: GraphQLInputType): PublicInput[] {
  const named = getNullableType(type);
  if (!isInputObjectType(named)) return [];
  return Object.values(named.getFields())
    .filter((field) => !isInaccessible(field.astNode))
    .map((field) => ({ name: field.name, type: field.type, hasDefault: field.defaultValue !== undefined }));
}

/** Leaving the input out is an error: non-null and without a default. */
export const isRequired = (input: PublicInput) => isNonNullType(input.type) && !input.hasDefault;

/** Where a REST route reads an input: the JSON body, the query string or a `:name` path segment. */
export type RestInputSource = 'body' | 'query' | 'params';

export interface RestInput extends PublicInput {
  source: RestInputSource;
  /** Where the route puts it among the operation's variables, e.g. `['input', 'email']`. */
  variablePath: string[];
}

export interface RestOperation {
  route: RestRoute;
  /** The route's inputs; empty when it takes none (a plain read, or a change with nothing to choose). */
  inputs: RestInput[];
  /** The operation's variable definitions, for checking what a route built against the schema. */
  variableDefinitions: readonly VariableDefinitionNode[];
  /** The root field the operation runs: a `Mutation` field for a change, `Query` for a read. */
  kind: 'mutation' | 'query';
}

const probeValue = (key: string) => `\u0001probe:${key}`;

/** The path of `needle` inside `value` (the variables a route built), or null. */
function pathOf(value: unknown, needle: string, path: string[] = []): string[] | null {
  if (value === needle) return path;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, each] of Object.entries(value)) {
    const found = pathOf(each, needle, [...path, key]);
    if (found) return found;
  }
  return null;
}

/** The input type at a path of the operation's variables. */
function inputAt(definitions: readonly VariableDefinitionNode[], path: string[]): PublicInput | null {
  const [variable, ...rest] = path;
  const definition = definitions.find((each) => each.variable.name.value === variable);
  if (!definition) return null;
  let input: PublicInput = {
    name: variable!,
    type: typeFromAST(supergraphSchema(), definition.type) as GraphQLInputType,
    hasDefault: definition.defaultValue !== undefined,
  };
  for (const name of rest) {
    const field = publicFieldsOf(input.type).find((each) => each.name === name);
    if (!field) return null;
    input = field;
  }
  return input;
}

/** The names a route could read an input by: each variable's name and the fields of an input object variable. */
function candidateKeys(definitions: readonly VariableDefinitionNode[], route: RestRoute): string[] {
  const keys = new Set<string>();
  for (const definition of definitions) {
    keys.add(definition.variable.name.value);
    const type = typeFromAST(supergraphSchema(), definition.type) as GraphQLInputType | undefined;
    if (type) for (const field of publicFieldsOf(type)) keys.add(field.name);
  }
  for (const match of route.path.matchAll(/:(\w+)/g)) keys.add(match[1]!);
  return [...keys];
}

/** Every route of the REST facade with the inputs it reads and the GraphQL type each one becomes. */
export function restOperations(): RestOperation[] {
  return restRoutes.map((route) => {
    const operation = parse(route.operation).definitions.find(
      (definition): definition is OperationDefinitionNode => definition.kind === 'OperationDefinition',
    )!;
    const variableDefinitions = operation.variableDefinitions ?? [];
    const inputs: RestInput[] = [];
    if (route.variables) {
      for (const key of candidateKeys(variableDefinitions, route)) {
        for (const source of ['body', 'query', 'params'] as const) {
          const request = { body: {}, query: {}, params: {} } as Record<RestInputSource, Record<string, string>>;
          request[source] = { [key]: probeValue(key) };
          // Headers are not probed: the one a route reads (a check-in's Idempotency-Key) has its own tests.
          const variables = route.variables(request.body, {
            query: request.query,
            params: request.params,
            header: () => undefined,
          });
          const variablePath = pathOf(variables, probeValue(key));
          const input = variablePath && inputAt(variableDefinitions, variablePath);
          if (input) inputs.push({ ...input, name: key, source, variablePath });
        }
      }
    }
    return { route, inputs, variableDefinitions, kind: operation.operation === 'mutation' ? 'mutation' : 'query' };
  });
}
