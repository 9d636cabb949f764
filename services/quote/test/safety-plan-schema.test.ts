/** The schema spells the safety plan's parts; they must be the platform's list, so a part is added in one place. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kind, parse } from 'graphql';
import { safetyPlanSections } from '@haven/platform';

const definitions = parse(readFileSync(join(__dirname, '../src/schema.graphql'), 'utf8')).definitions;

/** The field names of the type or input called `name`, in the schema's order. */
function fieldsOf(name: string): string[] {
  for (const definition of definitions) {
    const isTypeOrInput =
      definition.kind === Kind.OBJECT_TYPE_DEFINITION || definition.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION;
    if (isTypeOrInput && definition.name.value === name) {
      return (definition.fields ?? []).map((field) => field.name.value);
    }
  }
  throw new Error(`${name} is not in the quote service's schema`);
}

it('asks and answers exactly the safety plan’s parts', () => {
  const keys = safetyPlanSections.map(({ key }) => key);
  expect(fieldsOf('SafetyPlan')).toEqual([...keys, 'updatedAt']);
  expect(fieldsOf('SafetyPlanInput')).toEqual(keys);
});
