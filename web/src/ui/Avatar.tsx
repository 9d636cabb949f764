import { useState } from 'react';
import { cx } from './cx';

export interface AvatarProps {
  src?: string | null;
  /** Used as the image's alt text. */
  name: string;
  /** Shown when there is no picture or it fails to load. */
  fallback: string;
  className?: string;
}

export function Avatar({ src, name, fallback, className }: AvatarProps) {
  const [failed, setFailed] = useState(false);
  const showImage = Boolean(src) && !failed;
  return (
    <span className={cx('avatar', className)}>
      {showImage ? (
        <img
          className="avatar__image"
          src={src ?? undefined}
          alt={name}
          referrerPolicy="no-referrer"
          onError={() => setFailed(true)}
        />
      ) : (
        <span className="avatar__fallback" role="img" aria-label={name}>
          {fallback}
        </span>
      )}
    </span>
  );
}
