/**
 * /auth: "Sign In" (default) and "Create Account" tabs, Google and
 * hosted-platform sign-in, links to the terms and the privacy policy. After a provider's sign-in it
 * says what went wrong (`?signin=…`), or asks for the existing account's password to link it (`?link=…`).
 */
import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { useApolloClient, useMutation } from '@apollo/client/react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { BRAND } from '../../brand';
import {
  GOOGLE_SIGN_IN_URL,
  HOSTED_SIGN_IN_URL,
  LOGIN_REDIRECT_DELAY_MS,
  PASSWORD_MIN_LENGTH,
  PREMIUM_PRICE_LABEL,
  TRIAL_DAYS,
} from '../../constants';
import { errorCode, serverMessage } from '../../graphql/errors';
import {
  LinkSignInMethodDocument,
  LoginDocument,
  RegisterDocument,
  SubscriptionOfferDocument,
} from '../../graphql/operations.generated';
import { browserTimeZone } from '../../lib/dates';
import { navigateToServer } from '../../lib/navigation';
import { useInteractive } from '../../lib/prerendered';
import { pendingReauth, reauthNotice } from '../../lib/reauth';
import { offerTexts } from '../subscription/paymentSetup';
import { usePageTitle } from '../../lib/usePageTitle';
import { refused, serverFieldErrors, toastRefusal } from '../../lib/serverRefusal';
import { useForm, type FieldBinding } from '../../lib/useForm';
import {
  optionalName,
  validateRegistration,
  validateSignIn,
  type RegisterValues,
  type SignInValues,
} from './authValidation';
import { startSignedInSession } from '../../gating/sessionCache';
import { useSession } from '../../gating/useSession';
import { federatedSignInNotice, federatedSignInStart, pendingLink, type PendingLink } from './federatedSignIn';
import { ResendVerificationForm } from './ResendVerification';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { TextField } from '../../ui/Field';
import { GoogleIcon, KeyIcon } from '../../ui/icons';
import { Logo } from '../../ui/Logo';
import { FullPageSpinner } from '../../ui/Spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../ui/Tabs';
import { toast } from '../../ui/Toast';

type AuthTab = 'signin' | 'register';

/**
 * What the gateway says when a provider's sign-in comes back here: a failure (`?signin=…`, shown as a toast)
 * or an account to link (`?link=…`, kept in memory). Either way the address bar is cleaned at once, so the
 * one-time token does not stay in the history.
 */
function useProviderReturn(): [PendingLink | null, (link: PendingLink | null) => void] {
  const [params, setParams] = useSearchParams();
  const [link, setLink] = useState<PendingLink | null>(() => pendingLink(params));
  const query = params.toString();
  useEffect(() => {
    const current = new URLSearchParams(query);
    const notice = federatedSignInNotice(current);
    if (notice) toast({ ...notice, variant: 'destructive' });
    if (notice || current.has('link')) setParams({}, { replace: true });
  }, [query, setParams]);
  return [link, setLink];
}

export function AuthPage() {
  const session = useSession();
  const navigate = useNavigate();
  const apollo = useApolloClient();
  const [params] = useSearchParams();
  // The build's HTML is the plain sign-in, whatever the address asks: React adopts it as that, then draws the rest.
  const interactive = useInteractive();
  // Sent here to sign in again before a deletion: a signed-in person stays, and goes back afterwards.
  const reauth = interactive && params.get('reauth') === '1';
  const [tab, setTab] = useState<AuthTab>('signin');
  // Set once sign-in or registration succeeded: from then on this page navigates itself
  // (after its toast) instead of bouncing a freshly signed-in user straight to "/".
  const [completing, setCompleting] = useState(false);
  const [link, setLink] = useProviderReturn();
  const linking = interactive ? link : null;
  usePageTitle(linking ? 'Link Your Sign-In' : tab === 'signin' ? 'Sign In' : 'Create Account');

  if (!completing) {
    if (session.status === 'loading') return <FullPageSpinner />;
    if (session.status === 'signedIn' && !reauth) return <Navigate to="/" replace />;
  }

  // Drawn before the sign-in resets Apollo's store: the reset's "loading" must find the page completing (no spinner).
  const complete = () => flushSync(() => setCompleting(true));

  const onSignedIn = async () => {
    complete();
    toast({ title: 'Login successful', description: 'Welcome back!' });
    await startSignedInSession(apollo);
    const next = (reauth && pendingReauth()?.returnTo) || '/';
    window.setTimeout(() => navigate(next, { replace: true }), LOGIN_REDIRECT_DELAY_MS);
  };

  const onLinked = async (providerName: string) => {
    complete();
    toast({ title: 'Login successful', description: `${providerName} sign-in is linked. Welcome back!` });
    await startSignedInSession(apollo);
    window.setTimeout(() => navigate('/', { replace: true }), LOGIN_REDIRECT_DELAY_MS);
  };

  if (linking) {
    return (
      <main className="auth">
        <div className="auth__inner">
          <Link to="/" className="logo-link auth__logo" aria-label={`${BRAND.name} home`}>
            <Logo size={40} />
          </Link>
          <LinkAccountCard
            link={linking}
            disabled={completing}
            onLinked={() => onLinked(linking.providerName)}
            onCancel={() => setLink(null)}
          />
        </div>
      </main>
    );
  }

  const onRegistered = async () => {
    complete();
    await startSignedInSession(apollo);
    // The trial is once per address: an address whose earlier account had one is not promised another.
    const offer = await apollo
      .query({ query: SubscriptionOfferDocument, fetchPolicy: 'network-only' })
      .catch(() => null);
    const trial = offer?.data?.me?.trialAvailable !== false;
    toast({
      title: 'Registration successful',
      description: offerTexts(trial, PREMIUM_PRICE_LABEL, TRIAL_DAYS).registered,
    });
    navigate('/subscription', { replace: true });
  };

  return (
    <main className="auth">
      <div className="auth__inner">
        <Link to="/" className="logo-link auth__logo" aria-label={`${BRAND.name} home`}>
          <Logo size={40} />
        </Link>

        <Card>
          <CardHeader>
            {reauth ? (
              <>
                <CardTitle as="h1">Sign in again</CardTitle>
                <CardDescription>{reauthNotice.description}</CardDescription>
              </>
            ) : (
              <>
                <CardTitle as="h1">Welcome to {BRAND.name}</CardTitle>
                <CardDescription>
                  Sign in or create an account to start your emotional wellness journey.
                </CardDescription>
              </>
            )}
          </CardHeader>
          <CardContent>
            <Tabs value={tab} onValueChange={(value) => setTab(value as AuthTab)}>
              {!reauth && (
                <TabsList aria-label="Sign in or create an account">
                  <TabsTrigger value="signin">Sign In</TabsTrigger>
                  <TabsTrigger value="register">Create Account</TabsTrigger>
                </TabsList>
              )}
              <TabsContent value="signin">
                <SignInForm
                  disabled={completing}
                  onSuccess={onSignedIn}
                  initialEmail={reauth && session.status === 'signedIn' ? session.user.email : ''}
                />
                <ResendOnSignIn />
              </TabsContent>
              <TabsContent value="register">
                <RegisterForm disabled={completing} onSuccess={onRegistered} />
              </TabsContent>
            </Tabs>

            <div className="divider" role="separator">
              <span>or continue with</span>
            </div>

            <div className="stack-sm">
              <Button
                variant="outline"
                block
                disabled={completing}
                onClick={() => navigateToServer(federatedSignInStart(GOOGLE_SIGN_IN_URL, browserTimeZone()))}
              >
                <GoogleIcon />
                Continue with Google
              </Button>
              <Button
                variant="outline"
                block
                disabled={completing}
                onClick={() => navigateToServer(federatedSignInStart(HOSTED_SIGN_IN_URL, browserTimeZone()))}
              >
                <KeyIcon />
                Continue with {BRAND.hostedSignInName}
              </Button>
            </div>

            <p className="auth__legal text-muted">
              By continuing, you agree to our <Link to="/terms">Terms of Service</Link> and{' '}
              <Link to="/privacy">Privacy Policy</Link>.
            </p>
          </CardContent>
        </Card>
      </div>
    </main>
  );
}

/** The sign-in screen's way to a new verification e-mail, folded away until asked for. */
function ResendOnSignIn() {
  const [open, setOpen] = useState(false);
  return (
    <div className="auth__resend">
      <Button
        variant="ghost"
        size="sm"
        aria-expanded={open}
        aria-controls="signin-resend"
        onClick={() => setOpen((value) => !value)}
      >
        Didn't get the verification email?
      </Button>
      {open && (
        <div id="signin-resend">
          <ResendVerificationForm id="signin-resend-email" />
        </div>
      )}
    </div>
  );
}

interface FormProps {
  disabled: boolean;
  onSuccess: () => Promise<void>;
}

/** The e-mail field, the same in both forms. */
function EmailField(props: FieldBinding & { id: string }) {
  return (
    <TextField
      label="Email"
      name="email"
      type="email"
      autoComplete="email"
      inputMode="email"
      required
      placeholder="you@example.com"
      {...props}
    />
  );
}

function SignInForm({ disabled, onSuccess, initialEmail = '' }: FormProps & { initialEmail?: string }) {
  const [login] = useMutation(LoginDocument);
  const { field, pending, onSubmit } = useForm<SignInValues>({
    initial: { email: initialEmail, password: '' },
    validate: validateSignIn,
    errorsOnChange: 'recheck',
    focusFirstError: true,
    submit: async (input) => {
      await login({ variables: { input: { email: input.email.trim(), password: input.password } } });
      await onSuccess();
    },
    failed: refused({ title: 'Login failed', fallback: 'Invalid email or password' }),
    leavesOnSuccess: true,
  });

  return (
    <form className="stack" noValidate onSubmit={onSubmit} aria-label="Sign in">
      <EmailField id="signin-email" {...field('email')} />
      <TextField
        id="signin-password"
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        placeholder="Your password"
        {...field('password')}
      />
      <Link to="/forgot-password" className="auth__forgot">
        Forgot password?
      </Link>
      <Button type="submit" block loading={pending} disabled={disabled}>
        Sign In
      </Button>
    </form>
  );
}

function RegisterForm({ disabled, onSuccess }: FormProps) {
  const [register] = useMutation(RegisterDocument);
  const { field, pending, onSubmit } = useForm<RegisterValues>({
    initial: { email: '', password: '', firstName: '', lastName: '' },
    validate: validateRegistration,
    errorsOnChange: 'recheck',
    focusFirstError: true,
    submit: async (input) => {
      await register({
        variables: {
          input: {
            email: input.email.trim(),
            password: input.password,
            firstName: optionalName(input.firstName),
            lastName: optionalName(input.lastName),
            timeZone: browserTimeZone(),
          },
        },
      });
      await onSuccess();
    },
    // A CONFLICT is the address already taken: its message goes beside the e-mail field.
    failed: (error) => {
      toastRefusal('Registration failed', error, 'Please try again');
      const fromServer = serverFieldErrors<RegisterValues>(error, ['email', 'password', 'firstName', 'lastName']);
      if (errorCode(error) === 'CONFLICT' && !fromServer.email) fromServer.email = serverMessage(error);
      return fromServer;
    },
    leavesOnSuccess: true,
  });

  return (
    <form className="stack" noValidate onSubmit={onSubmit} aria-label="Create account">
      <div className="field-row">
        <TextField
          id="register-first-name"
          label="First name"
          name="firstName"
          autoComplete="given-name"
          placeholder="Optional"
          {...field('firstName')}
        />
        <TextField
          id="register-last-name"
          label="Last name"
          name="lastName"
          autoComplete="family-name"
          placeholder="Optional"
          {...field('lastName')}
        />
      </div>
      <EmailField id="register-email" {...field('email')} />
      <TextField
        id="register-password"
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN_LENGTH}
        placeholder={`Create a password (min ${PASSWORD_MIN_LENGTH} characters)`}
        {...field('password')}
      />
      <Button type="submit" block loading={pending} disabled={disabled}>
        Create Account
      </Button>
    </form>
  );
}

/**
 * The provider's address already has an account here, and Haven could not tell that both belong to the
 * same person (one side had not verified it): that account's password links the two, once.
 */
function LinkAccountCard(props: {
  link: PendingLink;
  disabled: boolean;
  onLinked: () => Promise<void>;
  onCancel: () => void;
}) {
  const { link, disabled, onLinked, onCancel } = props;
  const [linkSignIn] = useMutation(LinkSignInMethodDocument);
  const { field, pending, onSubmit } = useForm<{ password: string }>({
    initial: { password: '' },
    validate: ({ password }) => (password ? {} : { password: 'Password is required' }),
    errorsOnChange: 'clear',
    focusFirstError: true,
    submit: async ({ password }) => {
      await linkSignIn({ variables: { input: { token: link.token, password } } });
      await onLinked();
    },
    failed: (failure, _values, form) => {
      const fields = serverFieldErrors<{ password: string; token: string }>(failure, ['password', 'token']);
      if (fields.password) {
        form.focusFirstError();
        return { password: fields.password };
      }
      toastRefusal('Login failed', failure, 'Please try again');
      // A spent or expired link cannot be tried again: back to the usual choices.
      if (fields.token) onCancel();
      return {};
    },
    leavesOnSuccess: true,
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h1">Link your {link.providerName} sign-in</CardTitle>
        <CardDescription>
          You already have a {BRAND.name} account with this email address. Enter its password once to link{' '}
          {link.providerName} to it. After that, {link.providerName} signs you straight in.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="stack" noValidate onSubmit={onSubmit} aria-label={`Link your ${link.providerName} sign-in`}>
          <TextField
            id="link-password"
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            placeholder="The password of your account"
            {...field('password')}
          />
          <Link to="/forgot-password" className="auth__forgot">
            Forgot password?
          </Link>
          <Button type="submit" block loading={pending} disabled={disabled}>
            Link and sign in
          </Button>
          <Button type="button" variant="ghost" block disabled={pending || disabled} onClick={onCancel}>
            Not now
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
