/**
 * The public pages' sticky navigation: Features, About, Why Choose, FAQ, Contact and "Start Free Trial",
 * collapsed behind a menu button on small screens.
 */
import { useEffect, useId, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { BRAND } from '../../brand';
import { useInteractive } from '../../lib/prerendered';
import { buttonClass } from '../../ui/Button';
import { Logo } from '../../ui/Logo';
import { NAV_ITEMS, resolveNavHref } from './publicLinks';

export function PublicNav() {
  const { pathname } = useLocation();
  const onLanding = pathname === '/';
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const interactive = useInteractive();

  // A new page closes the menu; so does Escape.
  useEffect(() => setMenuOpen(false), [pathname]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const close = () => setMenuOpen(false);

  return (
    <header className="public-nav">
      <nav className="public-nav__inner" aria-label="Main">
        <Link to="/" className="logo-link" aria-label={`${BRAND.name} home`} onClick={close}>
          <Logo />
        </Link>
        <button
          type="button"
          className="public-nav__toggle btn btn--ghost btn--md"
          aria-expanded={menuOpen}
          aria-controls={menuId}
          disabled={!interactive}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span className="public-nav__burger" aria-hidden="true" />
          {menuOpen ? 'Close menu' : 'Menu'}
        </button>
        <div id={menuId} className="public-nav__menu" data-open={menuOpen}>
          <ul className="public-nav__links">
            {NAV_ITEMS.map((item) => {
              const href = resolveNavHref(item.href, onLanding);
              return (
                <li key={item.label}>
                  {href.startsWith('#') ? (
                    <a className="public-nav__link" href={href} onClick={close}>
                      {item.label}
                    </a>
                  ) : (
                    <Link
                      className="public-nav__link"
                      to={href}
                      onClick={close}
                      aria-current={href === pathname ? 'page' : undefined}
                    >
                      {item.label}
                    </Link>
                  )}
                </li>
              );
            })}
          </ul>
          <Link to="/auth" className={buttonClass({ size: 'md' })} onClick={close}>
            Start Free Trial
          </Link>
        </div>
      </nav>
    </header>
  );
}
