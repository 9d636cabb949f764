/**
 * /settings: "Loading..." until the user is known, the header menu, Account Information (with the
 * quote service's counts), Appearance, Subscription, Data & Privacy (areas/privacy), the place for the GDPR card,
 * the Admin Panel card (the designated admin only), e-mail, password and sign-in methods, Account Actions, and
 * the footer.
 */
import { useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Link } from 'react-router-dom';
import { BRAND } from '../../brand';
import { serverMessage } from '../../graphql/errors';
import { SettingsStatsDocument, SignOutEverywhereDocument } from '../../graphql/operations.generated';
import { chooseCountry, personCountry } from '../../lib/country';
import { navigateToServer, signOut } from '../../lib/navigation';
import { usePageTitle } from '../../lib/usePageTitle';
import { ChangeEmailCard, ChangePasswordCard, ProfileCard } from './AccountCare';
import { ROUTES } from '../../gating/routeTable';
import { SignInMethodsCard } from './SignInMethodsCard';
import { avatarInitial, displayName, memberSince } from './userDisplay';
import { useSession } from '../../gating/useSession';
import { useTheme } from '../../theme/ThemeProvider';
import { Avatar } from '../../ui/Avatar';
import { Button, buttonClass } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { CountryPicker } from '../../ui/CountryPicker';
import { LogoutIcon, MoonIcon } from '../../ui/icons';
import { Label } from '../../ui/Label';
import { Switch } from '../../ui/Switch';
import { SubscriptionCard } from '../subscription/SubscriptionCard';
import { DataPrivacyCard } from '../privacy/DataPrivacyCard';
import { GdprStatusCard } from '../privacy/GdprStatusCard';
import { toast } from '../../ui/Toast';

/** The header menu's links, in their order. */
const menuLinks = [
  { to: ROUTES.signedIn.dashboard, label: 'Home' },
  { to: ROUTES.signedIn.sliders, label: 'Check-in' },
  { to: ROUTES.signedIn.progress, label: 'Progress' },
  { to: ROUTES.signedIn.favorites, label: 'Favorites' },
  { to: ROUTES.setup.settings, label: 'Settings' },
  { to: ROUTES.public.faq, label: 'Help / FAQ' },
] as const;

/** Where the admin's "Export Subscribers CSV" downloads from. */
const EXPORT_SUBSCRIBERS_URL = '/api/admin/export-subscribers';

export function SettingsPage() {
  usePageTitle('Settings');
  const session = useSession();
  const { theme, setTheme } = useTheme();
  const [menuOpen, setMenuOpen] = useState(false);
  const [country, setCountry] = useState(personCountry);

  if (session.status !== 'signedIn') {
    return (
      <div className="page">
        <p role="status">Loading...</p>
      </div>
    );
  }

  const { user } = session;
  const name = displayName(user);

  const onCountryPick = (code: string | null) => {
    chooseCountry(code);
    setCountry(code);
    toast({ title: 'Country updated', description: `${BRAND.name} shows the help for your choice first.` });
  };

  const onDarkModeChange = (dark: boolean) => {
    setTheme(dark ? 'dark' : 'light');
    toast({
      title: 'Theme updated',
      description: dark ? 'Dark mode is on.' : 'Light mode is on.',
    });
  };

  return (
    <div className="page stack">
      <header className="page__header settings__header">
        <div className="settings__title-row">
          <h1 className="page__title">Settings</h1>
          <Button
            variant="ghost"
            size="sm"
            aria-expanded={menuOpen}
            aria-controls="settings-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            Menu
          </Button>
        </div>
        {menuOpen && (
          <nav id="settings-menu" aria-label="Menu" className="settings__menu">
            {menuLinks.map((link) => (
              <Link key={link.to} to={link.to} onClick={() => setMenuOpen(false)}>
                {link.label}
              </Link>
            ))}
          </nav>
        )}
        <p className="text-muted">Manage your account and preferences.</p>
      </header>

      <Card aria-labelledby="account-title">
        <CardHeader>
          <CardTitle id="account-title">Account Information</CardTitle>
        </CardHeader>
        <CardContent className="stack">
          <div className="account">
            <Avatar src={user.profileImageUrl} name={name} fallback={avatarInitial(user)} className="avatar--lg" />
            <div className="account__details">
              <p className="account__name">{name}</p>
              <p className="account__email text-muted">{user.email}</p>
              <p className="account__since text-muted">Member since {memberSince(user.createdAt)}</p>
            </div>
          </div>
          <AccountCounts />
        </CardContent>
      </Card>

      <ProfileCard
        key={user.id}
        firstName={user.firstName ?? null}
        lastName={user.lastName ?? null}
        timeZone={user.timeZone}
      />

      <Card aria-labelledby="appearance-title">
        <CardHeader>
          <CardTitle id="appearance-title">Appearance</CardTitle>
          <CardDescription>Choose how {BRAND.name} looks to you.</CardDescription>
        </CardHeader>
        <CardContent>
          <div className="setting-row">
            <MoonIcon className="setting-row__icon" />
            <Label htmlFor="dark-mode" className="setting-row__label">
              Dark Mode
            </Label>
            <Switch id="dark-mode" checked={theme === 'dark'} onCheckedChange={onDarkModeChange} />
          </div>
        </CardContent>
      </Card>

      <Card aria-labelledby="help-country-title">
        <CardHeader>
          <CardTitle id="help-country-title">Help in Your Country</CardTitle>
          <CardDescription>
            The crisis lines {BRAND.name} shows you first, on every page. Kept on this device only.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <CountryPicker id="settings-country" value={country} onPick={onCountryPick} />
        </CardContent>
      </Card>

      <Card aria-labelledby="email-title">
        <CardHeader>
          <CardTitle id="email-title">Email Preferences</CardTitle>
          <CardDescription>
            Choose which emails {BRAND.name} sends you: the newsletter, security notices, product updates and the weekly
            summary.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Link to="/email-preferences" className={buttonClass({ variant: 'outline' })}>
            Manage email preferences
          </Link>
        </CardContent>
      </Card>

      <SubscriptionCard />

      <DataPrivacyCard />

      {user.isAdmin && (
        <Card aria-labelledby="admin-title">
          <CardHeader>
            <CardTitle id="admin-title">Admin Panel</CardTitle>
            <CardDescription>Tools for the {BRAND.name} team.</CardDescription>
          </CardHeader>
          <CardContent className="stack-sm">
            <Link className="btn btn--outline btn--md btn--block" to="/admin/newsletter">
              Newsletter
            </Link>
            <Link className="btn btn--outline btn--md btn--block" to="/admin/users">
              User Management
            </Link>
            <Button variant="outline" block onClick={() => navigateToServer(EXPORT_SUBSCRIBERS_URL)}>
              Export Subscribers CSV
            </Button>
          </CardContent>
        </Card>
      )}

      <ChangeEmailCard email={user.email} />

      <ChangePasswordCard />

      <SignInMethodsCard />

      <Card aria-labelledby="actions-title">
        <CardHeader>
          <CardTitle id="actions-title">Account Actions</CardTitle>
        </CardHeader>
        <CardContent className="stack-sm">
          <Button variant="outline" block onClick={signOut}>
            <LogoutIcon size={18} />
            Sign Out
          </Button>
          <SignOutEverywhereButton />
        </CardContent>
      </Card>

      <GdprStatusCard />

      <footer className="page-footer text-muted">
        <nav aria-label="Legal" className="page-footer__links">
          <Link to="/terms">Terms of Service</Link>
          <Link to="/privacy">Privacy Policy</Link>
        </nav>
        <p>
          © {new Date().getFullYear()} {BRAND.name}. All rights reserved.
        </p>
      </footer>
    </div>
  );
}

/** Total Quotes, Entries and Favorites, from the quote service; shown once they are known. */
function AccountCounts() {
  const { data } = useQuery(SettingsStatsDocument);
  const stats = data?.me?.stats;
  const counts = [
    { label: 'Total Quotes', value: stats?.totalQuotes },
    { label: 'Entries', value: stats?.totalEntries },
    { label: 'Favorites', value: stats?.favoriteQuotes },
  ];
  return (
    <dl className="account__counts">
      {counts.map((count) => (
        <div key={count.label} className="account__count">
          <dt className="text-muted">{count.label}</dt>
          <dd>{count.value ?? '–'}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Ends every session of this account (a lost phone, a shared computer), then shows the signed-out app. */
function SignOutEverywhereButton() {
  const [signOutEverywhere, { loading }] = useMutation(SignOutEverywhereDocument);
  const onClick = async () => {
    try {
      await signOutEverywhere();
      // A full load: every cached answer belonged to the ended session.
      window.location.assign('/auth');
    } catch (error) {
      toast({
        title: 'Sign out failed',
        description: serverMessage(error) ?? 'Please try again.',
        variant: 'destructive',
      });
    }
  };
  return (
    <Button variant="ghost" block loading={loading} onClick={onClick}>
      Sign out everywhere
    </Button>
  );
}
