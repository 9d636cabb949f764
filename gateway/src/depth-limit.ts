import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';

/** Refuses operations nested deeper than `maxDepth` (fragments counted where they are spread). */
export function depthLimit(maxDepth: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }
    const depthOf = (selectionSet: SelectionSetNode | undefined, seen: Set<string>): number => {
      if (!selectionSet) return 0;
      let deepest = 0;
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FIELD) {
          deepest = Math.max(deepest, 1 + depthOf(selection.selectionSet, seen));
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          deepest = Math.max(deepest, depthOf(selection.selectionSet, seen));
        } else if (!seen.has(selection.name.value)) {
          const fragment = fragments.get(selection.name.value);
          deepest = Math.max(deepest, depthOf(fragment?.selectionSet, new Set([...seen, selection.name.value])));
        }
      }
      return deepest;
    };
    return {
      OperationDefinition(operation) {
        const depth = depthOf(operation.selectionSet, new Set());
        if (depth > maxDepth) {
          context.reportError(
            new GraphQLError(`Query is nested too deeply: depth ${depth}, at most ${maxDepth} allowed`, {
              nodes: [operation],
              extensions: { code: 'BAD_USER_INPUT' },
            }),
          );
        }
      },
    };
  };
}
