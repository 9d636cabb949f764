/**
 * The frame around every signed-in screen: a header with the logo and a
 * logout button, and the bottom navigation (Home, You, Analytics, Settings).
 */
import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { BRAND } from '../brand';
import { signOut } from '../lib/navigation';
import { Button } from '../ui/Button';
import { ChartIcon, HomeIcon, LogoutIcon, SettingsIcon, UserIcon } from '../ui/icons';
import { Logo } from '../ui/Logo';
import { Tooltip } from '../ui/Tooltip';
import { SkipLink } from '../ui/SkipLink';

export const BOTTOM_NAV_ITEMS = [
  { to: '/', label: 'Home', Icon: HomeIcon },
  { to: '/sliders', label: 'You', Icon: UserIcon },
  { to: '/analytics', label: 'Analytics', Icon: ChartIcon },
  { to: '/settings', label: 'Settings', Icon: SettingsIcon },
] as const;

export function AppShell({ children }: { children: ReactNode }) {
  return (
    <div className="shell">
      <SkipLink />
      <header className="shell__header">
        <Link to="/" className="logo-link" aria-label={`${BRAND.name} home`}>
          <Logo size={28} />
        </Link>
        <Tooltip content="Logout">
          <Button variant="ghost" size="icon" aria-label="Logout" onClick={signOut}>
            <LogoutIcon />
          </Button>
        </Tooltip>
      </header>

      <main id="main" className="shell__main" tabIndex={-1}>
        {children}
      </main>

      <nav className="bottom-nav" aria-label="Main">
        <ul className="bottom-nav__list">
          {BOTTOM_NAV_ITEMS.map(({ to, label, Icon }) => (
            <li key={to}>
              {/* NavLink sets aria-current="page" on the current tab. */}
              <NavLink to={to} end className="bottom-nav__link">
                <Icon size={22} />
                <span>{label}</span>
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
