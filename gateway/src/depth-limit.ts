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
    // Each fragment is measured once (memoised), so spreading a fragment many times costs nothing extra;
    // a spread inside its own cycle counts 0 (graphql-js's NoFragmentCycles refuses such documents anyway).
    const fragmentDepths = new Map<string, number>();
    const measuring = new Set<string>();
    const fragmentDepth = (name: string): number => {
      const known = fragmentDepths.get(name);
      if (known !== undefined) return known;
      if (measuring.has(name)) return 0;
      measuring.add(name);
      const depth = depthOf(fragments.get(name)?.selectionSet);
      measuring.delete(name);
      fragmentDepths.set(name, depth);
      return depth;
    };
    const depthOf = (selectionSet: SelectionSetNode | undefined): number => {
      if (!selectionSet) return 0;
      let deepest = 0;
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FIELD) deepest = Math.max(deepest, 1 + depthOf(selection.selectionSet));
        else if (selection.kind === Kind.INLINE_FRAGMENT) deepest = Math.max(deepest, depthOf(selection.selectionSet));
        else deepest = Math.max(deepest, fragmentDepth(selection.name.value));
      }
      return deepest;
    };
    return {
      OperationDefinition(operation) {
        const depth = depthOf(operation.selectionSet);
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
