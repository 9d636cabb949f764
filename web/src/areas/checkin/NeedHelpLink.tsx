/** "Need help now?": one tap to the helplines from every page, signed in or not, subscribed or not. */
import { Link } from 'react-router-dom';

export function NeedHelpLink() {
  return (
    <Link to="/help" className="need-help-link">
      Need help now?
    </Link>
  );
}
