/** "Need help now?": one tap to the helplines from every page, signed in or not, subscribed or not. */
import { Link, useLocation } from 'react-router-dom';
import { SUPPORT_PATH } from '../public/publicLinks';

export function NeedHelpLink() {
  // On the help page itself a link to it would only reload what the person is reading.
  if (useLocation().pathname === SUPPORT_PATH) return null;
  return (
    <Link to={SUPPORT_PATH} className="need-help-link">
      Need help now?
    </Link>
  );
}
