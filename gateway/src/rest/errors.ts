import { httpStatusOf } from '@haven/platform';
import type { GraphQLFormattedError } from 'graphql';

export interface RestError {
  status: number;
  body: { message: string } & Record<string, unknown>;
}

/** "firstName" → "First name", matching the services' own messages. */
export function label(field: string): string {
  const words = field.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * GraphQL rejects a wrongly-typed or missing variable before any resolver runs,
 * with graphql-js's wording; this names the field the REST client sent.
 */
function variableProblem(message: string): { field: string; message: string } | null {
  const missing = /Field "(\w+)" of required type "[^"]+" was not provided/.exec(message);
  if (missing) return { field: missing[1]!, message: `${label(missing[1]!)} is required` };
  const wrongType = /got invalid value .* at "\w+\.([\w.[\]]+)"; (.*)$/.exec(message);
  if (wrongType) {
    const field = wrongType[1]!;
    return { field, message: `${label(field)} ${wrongTypeProblem(wrongType[2]!)}` };
  }
  return null;
}

/** What graphql-js's reason for refusing a value means, in the words a form shows after the field's name. */
function wrongTypeProblem(reason: string): string {
  if (/^Expected non-nullable type .* not to be null/.test(reason)) return 'is required';
  if (/^Int cannot represent non 32-bit/.test(reason)) return 'must be a whole number from -2147483648 to 2147483647';
  if (/^Int cannot represent/.test(reason)) return 'must be a whole number';
  if (/^Float cannot represent/.test(reason)) return 'must be a number';
  if (/^Boolean cannot represent/.test(reason)) return 'must be true or false';
  if (/does not exist in ".*" enum/.test(reason)) return 'is not one of the accepted values';
  if (/^Expected type ".*" to be an object/.test(reason)) return 'must be an object';
  return 'must be a string';
}

/** The first GraphQL error, as the REST status and `{ message }` body the web client reads. */
export function restErrorOf(errors: readonly GraphQLFormattedError[]): RestError {
  const [error] = errors;
  const code = error?.extensions?.code;
  const extensions = error?.extensions ?? {};
  if (code === 'BAD_USER_INPUT' && error && error.message.startsWith('Variable "$')) {
    // graphql-js reports each bad variable field as its own error; the client gets them all.
    const problems = errors.flatMap((each) => {
      const problem = each.message.startsWith('Variable "$') ? variableProblem(each.message) : null;
      return problem ? [problem] : [];
    });
    const [first] = problems;
    if (first) return { status: 400, body: { ...first, problems } };
  }
  const status = code === 'GRAPHQL_VALIDATION_FAILED' || code === 'GRAPHQL_PARSE_FAILED' ? 400 : httpStatusOf(code);
  const body: RestError['body'] = { message: error?.message ?? 'Request failed' };
  for (const key of ['field', 'problems', 'reason', 'requiresAuth'] as const) {
    if (extensions[key] !== undefined) body[key] = extensions[key];
  }
  // A refusal the client answers by itself (sign in again, then retry) names itself for machines too.
  if (code === 'REAUTH_REQUIRED') body.code = code;
  return { status, body };
}
