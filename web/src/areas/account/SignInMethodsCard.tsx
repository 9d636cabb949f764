/** Settings' "Sign-in Methods": how this account signs in, and how to add a provider. Read-only. */
import { useQuery } from '@apollo/client/react';
import { BRAND } from '../../brand';
import { SignInMethodsDocument } from '../../graphql/operations.generated';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { signInMethodLine } from './federatedSignIn';

export function SignInMethodsCard() {
  const { data } = useQuery(SignInMethodsDocument);
  const methods = data?.me?.signInMethods;
  return (
    <Card aria-labelledby="sign-in-methods-title">
      <CardHeader>
        <CardTitle id="sign-in-methods-title">Sign-in Methods</CardTitle>
        <CardDescription>The ways you can get into your account.</CardDescription>
      </CardHeader>
      <CardContent className="stack-sm">
        {methods ? (
          <ul className="sign-in-methods" aria-labelledby="sign-in-methods-title">
            {methods.map((method) => {
              const line = signInMethodLine(method);
              return (
                <li key={`${method.kind}:${method.email ?? ''}`}>
                  <strong>{line.name}</strong>
                  {line.detail && <span className="text-muted"> · {line.detail}</span>}
                </li>
              );
            })}
          </ul>
        ) : (
          <p role="status" className="text-muted">
            Loading...
          </p>
        )}
        <p className="text-muted">
          To add Google or {BRAND.hostedSignInName}, sign out and choose it on the sign-in page, using this
          account&apos;s email address. If we need to be sure it&apos;s you, we&apos;ll ask for your password once.
        </p>
      </CardContent>
    </Card>
  );
}
