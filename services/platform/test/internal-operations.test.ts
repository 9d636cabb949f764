import type express from 'express';
import { gql } from 'graphql-tag';
import { internalFields, serviceHttpRoutes } from '../src';

describe('internal operations, read from the schema', () => {
  it('are the fields marked @internal, on any type, whatever else they carry', () => {
    const schema = gql`
      directive @internal on FIELD_DEFINITION
      type Query {
        open: Int
        clock: Int @internal @inaccessible
      }
      extend type Mutation {
        close(id: ID!): Boolean @inaccessible @internal
      }
      type User @key(fields: "id") {
        id: ID!
        secret: String @internal @inaccessible
      }
    `;
    expect([...internalFields(schema)].sort()).toEqual(['Mutation.close', 'Query.clock', 'User.secret']);
  });

  it('must also be @inaccessible, so none reaches the public supergraph', () => {
    const schema = gql`
      type Mutation {
        close(id: ID!): Boolean @internal
      }
    `;
    expect(() => internalFields(schema)).toThrow(/Mutation.close is @internal, so it must be @inaccessible too/);
  });
});

describe("a service's plain HTTP routes", () => {
  const ok: express.RequestHandler = (_req, res) => {
    res.end();
  };

  it('are exactly the ones its catalog entry declares', () => {
    expect(serviceHttpRoutes('billing', { 'POST /stripe/webhook': [ok] }).service).toBe('billing');
    expect(() => serviceHttpRoutes('user', {})).not.toThrow();
  });

  it('refuse a route the catalog does not declare, or a declared one without a handler', () => {
    // What a type check keeps out of the service's code, refused at start too.
    const undeclared = { 'POST /stripe/webhook': [ok], 'POST /graphql': [ok] } as {
      'POST /stripe/webhook': [typeof ok];
    };
    expect(() => serviceHttpRoutes('billing', undeclared)).toThrow(
      /not declared in the service catalog: POST \/graphql/,
    );
    expect(() => serviceHttpRoutes('billing', { 'POST /stripe/webhook': [] })).toThrow(/no handler/);
  });
});
