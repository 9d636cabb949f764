import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';

interface Size {
  /** Deepest nesting of fields. */
  depth: number;
  /** Fields selected, fragments counted each time they are spread. */
  fields: number;
}

/**
 * Measures operations of one document. Each fragment is measured once (memoised), so spreading a
 * fragment many times costs nothing extra to measure; a spread inside its own cycle counts nothing
 * (graphql-js's NoFragmentCycles refuses such documents anyway).
 */
function operationSizer(document: DocumentNode): (operation: OperationDefinitionNode) => Size {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const fragmentSizes = new Map<string, Size>();
  const measuring = new Set<string>();
  const fragmentSize = (name: string): Size => {
    const known = fragmentSizes.get(name);
    if (known) return known;
    if (measuring.has(name)) return { depth: 0, fields: 0 };
    measuring.add(name);
    const size = sizeOf(fragments.get(name)?.selectionSet);
    measuring.delete(name);
    fragmentSizes.set(name, size);
    return size;
  };
  const sizeOf = (selectionSet: SelectionSetNode | undefined): Size => {
    const total = { depth: 0, fields: 0 };
    for (const selection of selectionSet?.selections ?? []) {
      let size: Size;
      if (selection.kind === Kind.FIELD) {
        const inner = sizeOf(selection.selectionSet);
        size = { depth: 1 + inner.depth, fields: 1 + inner.fields };
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        size = sizeOf(selection.selectionSet);
      } else {
        size = fragmentSize(selection.name.value);
      }
      total.depth = Math.max(total.depth, size.depth);
      total.fields += size.fields;
    }
    return total;
  };
  return (operation) => sizeOf(operation.selectionSet);
}

function limitRule(check: (size: Size) => string | null) {
  return (context: ValidationContext): ASTVisitor => {
    const sizeOf = operationSizer(context.getDocument());
    return {
      OperationDefinition(operation) {
        const problem = check(sizeOf(operation));
        if (problem) {
          context.reportError(
            new GraphQLError(problem, { nodes: [operation], extensions: { code: 'BAD_USER_INPUT' } }),
          );
        }
      },
    };
  };
}

/** Refuses operations nested deeper than `maxDepth` (fragments counted where they are spread). */
export function depthLimit(maxDepth: number) {
  return limitRule(({ depth }) =>
    depth > maxDepth ? `Query is nested too deeply: depth ${depth}, at most ${maxDepth} allowed` : null,
  );
}

/** Refuses operations selecting more than `maxFields` fields in all: a cost bound that depth alone misses. */
export function fieldLimit(maxFields: number) {
  return limitRule(({ fields }) =>
    fields > maxFields ? `Query selects too many fields: ${fields}, at most ${maxFields} allowed` : null,
  );
}
