import { buildSchema, graphql, GraphQLError, type GraphQLFormattedError } from 'graphql';
import { conflict, forbidden, notFound } from '@haven/platform';
import { label, restErrorOf } from '../src/rest/errors';

/**
 * A registration-like input, so the messages below are graphql-js's own: the test breaks
 * if graphql-js changes its wording and the gateway's parsing falls behind.
 */
const schema = buildSchema(`
  input ProfileInput {
    email: String!
    firstName: String
    age: Int
    score: Float
    newsletter: Boolean
    userId: ID
  }
  type Query { ok: Boolean }
  type Mutation { save(input: ProfileInput!): Boolean }
`);

const mutation = 'mutation Save($input: ProfileInput!) { save(input: $input) }';

/** The errors graphql-js gives for these variables, as Apollo Server formats them (code BAD_USER_INPUT). */
async function coercionErrors(input: Record<string, unknown>): Promise<GraphQLFormattedError[]> {
  const result = await graphql({
    schema,
    source: mutation,
    variableValues: { input },
    rootValue: { save: () => true },
  });
  expect(result.errors?.length).toBeGreaterThan(0);
  return result.errors!.map((error) => ({ ...error.toJSON(), extensions: { code: 'BAD_USER_INPUT' } }));
}

describe('label', () => {
  it('turns a field name into the words a form shows', () => {
    expect(label('email')).toBe('Email');
    expect(label('firstName')).toBe('First name');
    expect(label('profileImageUrl')).toBe('Profile image url');
  });
});

describe('restErrorOf: variables graphql-js refused', () => {
  it('a missing required field is "<Field> is required", naming the field', async () => {
    const { status, body } = restErrorOf(await coercionErrors({ firstName: 'Ann' }));
    expect(status).toBe(400);
    expect(body).toEqual({
      message: 'Email is required',
      field: 'email',
      problems: [{ field: 'email', message: 'Email is required' }],
    });
  });

  it('lists every field graphql-js refused, the first one as the message', async () => {
    const { status, body } = restErrorOf(await coercionErrors({ firstName: 7, age: 'old' }));
    expect(status).toBe(400);
    expect(body.message).toBe('Email is required');
    expect(body.problems).toEqual(
      expect.arrayContaining([
        { field: 'email', message: 'Email is required' },
        { field: 'firstName', message: 'First name must be a string' },
        { field: 'age', message: 'Age must be a whole number' },
      ]),
    );
  });

  it('a non-string for a String field is "<Field> must be a string"', async () => {
    const { status, body } = restErrorOf(await coercionErrors({ email: 42 }));
    expect(status).toBe(400);
    expect(body).toMatchObject({ message: 'Email must be a string', field: 'email' });
  });

  it('uses the nested field, labelled, for a field inside the input object', async () => {
    const { body } = restErrorOf(await coercionErrors({ email: 'ann@example.com', firstName: ['Ann'] }));
    expect(body).toMatchObject({ message: 'First name must be a string', field: 'firstName' });
  });

  it.each([
    ['age', 'old', 'Age must be a whole number'],
    ['age', 1.5, 'Age must be a whole number'],
    ['age', 2 ** 31, 'Age must be a whole number from -2147483648 to 2147483647'],
    ['score', 'high', 'Score must be a number'],
  ])('a wrong value for a number field (%s = %p) is "%s"', async (field, value, message) => {
    const { status, body } = restErrorOf(await coercionErrors({ email: 'ann@example.com', [field]: value }));
    expect(status).toBe(400);
    expect(body).toEqual({ message, field, problems: [{ field, message }] });
  });

  it('null for a required field is "<Field> is required", whatever its type', async () => {
    const { body } = restErrorOf(await coercionErrors({ email: null }));
    expect(body).toMatchObject({ message: 'Email is required', field: 'email' });
  });

  it('a wrong value for a Boolean field asks for true or false', async () => {
    const { body } = restErrorOf(await coercionErrors({ email: 'ann@example.com', newsletter: 'yes' }));
    expect(body).toMatchObject({ message: 'Newsletter must be true or false', field: 'newsletter' });
  });

  it('a wrong value for an ID field asks for a string', async () => {
    const { body } = restErrorOf(await coercionErrors({ email: 'ann@example.com', userId: { id: 1 } }));
    expect(body).toMatchObject({ message: 'User id must be a string', field: 'userId' });
  });
});

describe('restErrorOf: errors from the services', () => {
  it('passes a bad-input error through with its field and every problem', () => {
    const problems = [
      { field: 'email', message: 'Email must be a valid email address' },
      { field: 'password', message: 'Password must be at least 8 characters' },
    ];
    const error = new GraphQLError('Email must be a valid email address', {
      extensions: { code: 'BAD_USER_INPUT', field: 'email', problems },
    });
    expect(restErrorOf([error.toJSON()])).toEqual({
      status: 400,
      body: { message: 'Email must be a valid email address', field: 'email', problems },
    });
  });

  it('a conflict is 409 with its message', () => {
    expect(restErrorOf([conflict('An account with this email already exists').toJSON()])).toEqual({
      status: 409,
      body: { message: 'An account with this email already exists' },
    });
  });

  it('forbidden is 403 and tells the client to sign in again and why', () => {
    const error = forbidden('Your free trial has ended', { requiresAuth: true, reason: 'trial_expired' });
    expect(restErrorOf([error.toJSON()])).toEqual({
      status: 403,
      body: { message: 'Your free trial has ended', requiresAuth: true, reason: 'trial_expired' },
    });
  });

  it('not found is 404', () => {
    expect(restErrorOf([notFound('No such quote').toJSON()]).status).toBe(404);
  });

  it('does not leak other extensions (such as stack traces) into the body', () => {
    const error: GraphQLFormattedError = {
      message: 'Boom',
      extensions: { code: 'INTERNAL_SERVER_ERROR', stacktrace: ['at secret.ts:1'], exception: { detail: 'x' } },
    };
    expect(restErrorOf([error])).toEqual({ status: 500, body: { message: 'Boom' } });
  });

  it('an unknown or missing code is 500', () => {
    expect(restErrorOf([{ message: 'Odd', extensions: { code: 'SOMETHING_NEW' } }]).status).toBe(500);
    expect(restErrorOf([{ message: 'Odd' }]).status).toBe(500);
  });

  it('a query the gateway could not parse or validate is 400', () => {
    expect(restErrorOf([{ message: 'Syntax Error', extensions: { code: 'GRAPHQL_PARSE_FAILED' } }]).status).toBe(400);
    expect(
      restErrorOf([{ message: 'Cannot query field', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }]).status,
    ).toBe(400);
  });

  it('still answers with a message when there is no error to report', () => {
    expect(restErrorOf([])).toEqual({ status: 500, body: { message: 'Request failed' } });
  });
});
