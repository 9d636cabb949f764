/**
 * Every GraphQL operation the web app sends, in one place.
 * The gateway serves them at /graphql (see graphql/client.ts).
 */
import { gql, type TypedDocumentNode } from '@apollo/client';
import type {
  LoginMutation,
  LoginMutationVariables,
  MeQuery,
  MeQueryVariables,
  RegisterMutation,
  RegisterMutationVariables,
} from './types';

/** The session: who is signed in, and whether their subscription lets them in. */
export const ME_QUERY: TypedDocumentNode<MeQuery, MeQueryVariables> = gql`
  query Me {
    me {
      id
      email
      firstName
      lastName
      profileImageUrl
      emailVerified
      createdAt
      subscriptionStatus {
        planType
        status
        isTrialing
        needsSetup
        hasActiveSubscription
        trialEnd
        currentPeriodEnd
        cancelAtPeriodEnd
      }
    }
  }
`;

/** Sign in with e-mail and password; the gateway sets the session cookie. */
export const LOGIN_MUTATION: TypedDocumentNode<LoginMutation, LoginMutationVariables> = gql`
  mutation Login($input: LoginInput!) {
    login(input: $input) {
      user {
        id
        email
      }
    }
  }
`;

/** Create an account; the gateway sets the session cookie. */
export const REGISTER_MUTATION: TypedDocumentNode<RegisterMutation, RegisterMutationVariables> = gql`
  mutation Register($input: RegisterInput!) {
    register(input: $input) {
      user {
        id
        email
      }
    }
  }
`;
