/**
 * TypeScript shapes of the gateway's GraphQL contract, as far as the web app selects it.
 * Hand-written; keep in step with `operations.ts`.
 */

export interface SubscriptionStatus {
  __typename?: 'SubscriptionStatus';
  /** "trial" | "premium" | "free" */
  planType: string;
  status: string;
  isTrialing: boolean;
  needsSetup: boolean;
  hasActiveSubscription: boolean;
  /** Epoch seconds. */
  trialEnd: number | null;
  /** Epoch seconds. */
  currentPeriodEnd: number | null;
  cancelAtPeriodEnd: boolean;
}

export interface SessionUser {
  __typename?: 'User';
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  emailVerified: boolean;
  /** ISO 8601. */
  createdAt: string;
  subscriptionStatus: SubscriptionStatus;
}

export interface MeQuery {
  me: SessionUser | null;
}
export type MeQueryVariables = Record<string, never>;

export interface RegisterInput {
  email: string;
  password: string;
  firstName?: string;
  lastName?: string;
}

export interface LoginInput {
  email: string;
  password: string;
}

export interface AuthPayloadUser {
  __typename?: 'User';
  id: string;
  email: string;
}

export interface LoginMutation {
  login: { __typename?: 'AuthPayload'; user: AuthPayloadUser };
}
export interface LoginMutationVariables {
  input: LoginInput;
}

export interface RegisterMutation {
  register: { __typename?: 'AuthPayload'; user: AuthPayloadUser };
}
export interface RegisterMutationVariables {
  input: RegisterInput;
}
