/**
 * Full-page navigations to server routes (sign-out, OAuth). These leave the single-page
 * app on purpose: the gateway sets or clears the httpOnly session cookie and redirects back.
 */
export function navigateToServer(path: string): void {
  window.location.assign(path);
}
