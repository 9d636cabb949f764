/** Sign-in and account: the pages the app shell loads from this area (app/pages.tsx). */
export { AuthPage } from './AuthPage';
export { SettingsPage } from './SettingsPage';
export { VerifyEmailPage } from './VerifyEmailPage';
export { ForgotPasswordPage, ResetPasswordPage } from './PasswordResetPages';
