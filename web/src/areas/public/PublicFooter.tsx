/** The public pages' footer: the legal and help links, the crisis page, and the contact address (#contact). */
import { Link, useLocation } from 'react-router-dom';
import { BRAND } from '../../brand';
import { Logo } from '../../ui/Logo';
import { CONTACT_EMAIL, CONTACT_MAILTO, SUPPORT_PATH } from './publicLinks';

export function PublicFooter() {
  const onHelpPage = useLocation().pathname === SUPPORT_PATH;
  return (
    <footer id="contact" className="public-footer">
      <div className="public-footer__inner">
        <div className="public-footer__brand">
          <Logo size={28} />
          <p className="text-muted">
            Your daily emotional wellness companion. Not therapy, and never a substitute for it.
          </p>
        </div>
        <nav aria-label="Footer">
          <ul className="public-footer__links">
            <li>
              <Link to="/about">About</Link>
            </li>
            <li>
              <Link to="/faq">FAQ</Link>
            </li>
            <li>
              <Link to="/privacy">Privacy Policy</Link>
            </li>
            <li>
              <Link to="/terms">Terms of Service</Link>
            </li>
            <li>
              <Link to="/auth">Sign In</Link>
            </li>
            {!onHelpPage && (
              <li>
                <Link to={SUPPORT_PATH}>Need help now?</Link>
              </li>
            )}
          </ul>
        </nav>
        <div className="public-footer__contact">
          <h2 className="public-footer__heading">Contact</h2>
          <p>
            Questions, ideas or a problem? Write to us at <a href={CONTACT_MAILTO}>{CONTACT_EMAIL}</a> and a person will
            answer.
          </p>
        </div>
      </div>
      <p className="public-footer__copy text-muted">
        © {new Date().getFullYear()} {BRAND.name}. All rights reserved.
      </p>
    </footer>
  );
}
