/** The first stop for a keyboard: straight past the header to the page's `<main id="main">`. */
export function SkipLink() {
  return (
    <a className="skip-link" href="#main">
      Skip to content
    </a>
  );
}
