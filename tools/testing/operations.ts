/**
 * Haven's public operations, read from their single sources so a test that walks them sees a new one by
 * itself: the mutations of the public supergraph (`gateway/supergraph.graphql`, minus `@inaccessible`
 * fields) and the REST facade's route table (`gateway/src/rest/routes`), each route's inputs found by
 * asking its own `variables` function where a key of the body, the query string or the path ends up.
 */
import {
  buildSchema,
  getNamedType,
  getNullableType,
  isInputObjectType,
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
import { restRoutes, type RestRoute } from '../../gateway/src/rest/routes';
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

/** Every root Mutation field clients can call (the supergraph's, minus `@inaccessible` ones), by name. */
export function publicMutations(): PublicMutation[] {
  const mutation = supergraphSchema().getMutationType();
  if (!mutation) return [];
  return Object.values(mutation.getFields())
    .filter((field) => !isInaccessible(field.astNode))
    .map((field) => ({
      name: field.name,
      args: field.args.filter((arg) => !isInaccessible(arg.astNode)).map(publicInputOf),
      returnsObject: !getNamedType(field.type).name.match(/^(String|Int|Float|Boolean|ID)$/),
      field,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
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
          const variables = route.variables(request.body, { query: request.query, params: request.params });
          const variablePath = pathOf(variables, probeValue(key));
          const input = variablePath && inputAt(variableDefinitions, variablePath);
          if (input) inputs.push({ ...input, name: key, source, variablePath });
        }
      }
    }
    return { route, inputs, variableDefinitions, kind: operation.operation === 'mutation' ? 'mutation' : 'query' };
  });
}
