/**
 * /settings. This slice: Account Information, Appearance and
 * Account Actions; the subscription, data & privacy, admin and GDPR cards come later.
 */
import { Link } from 'react-router-dom';
import { BRAND } from '../../brand';
import { LOGOUT_URL } from '../../constants';
import { navigateToServer } from '../../lib/navigation';
import { usePageTitle } from '../../lib/usePageTitle';
import { avatarInitial, displayName, memberSince } from './userDisplay';
import { useSession } from '../../gating/useSession';
import { useTheme } from '../../theme/ThemeProvider';
import { Avatar } from '../../ui/Avatar';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { LogoutIcon, MoonIcon } from '../../ui/icons';
import { Label } from '../../ui/Label';
import { Switch } from '../../ui/Switch';
import { SubscriptionCard } from '../subscription/SubscriptionCard';
import { toast } from '../../ui/Toast';

export function SettingsPage() {
  usePageTitle('Settings');
  const session = useSession();
  const { theme, setTheme } = useTheme();

  if (session.status !== 'signedIn') {
    return (
      <div className="page">
        <p role="status">Loading...</p>
      </div>
    );
  }

  const { user } = session;
  const name = displayName(user);

  const onDarkModeChange = (dark: boolean) => {
    setTheme(dark ? 'dark' : 'light');
    toast({
      title: 'Theme updated',
      description: dark ? 'Dark mode is on.' : 'Light mode is on.',
    });
  };

  return (
    <div className="page stack">
      <header className="page__header">
        <h1 className="page__title">Settings</h1>
        <p className="text-muted">Manage your account and preferences.</p>
      </header>

      <Card aria-labelledby="account-title">
        <CardHeader>
          <CardTitle id="account-title">Account Information</CardTitle>
        </CardHeader>
        <CardContent className="account">
          <Avatar src={user.profileImageUrl} name={name} fallback={avatarInitial(user)} className="avatar--lg" />
          <div className="account__details">
            <p className="account__name">{name}</p>
            <p className="account__email text-muted">{user.email}</p>
            <p className="account__since text-muted">Member since {memberSince(user.createdAt)}</p>
          </div>
        </CardContent>
      </Card>

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

      <SubscriptionCard />

      <Card aria-labelledby="actions-title">
        <CardHeader>
          <CardTitle id="actions-title">Account Actions</CardTitle>
        </CardHeader>
        <CardContent>
          <Button variant="outline" block onClick={() => navigateToServer(LOGOUT_URL)}>
            <LogoutIcon size={18} />
            Sign Out
          </Button>
        </CardContent>
      </Card>

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
