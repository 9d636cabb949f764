/**
 * Which component renders each page of the route table, and whether it sits in the
 * signed-in shell. Pages not listed yet (about, terms, privacy, faq, sliders, …) come
 * with later issues; until then their paths show the not-found page.
 */
import type { ComponentType } from 'react';
import { AuthPage } from '../pages/AuthPage';
import { DashboardPage } from '../pages/DashboardPage';
import { LandingPage } from '../pages/LandingPage';
import { SettingsPage } from '../pages/SettingsPage';
import { SubscriptionPage } from '../pages/SubscriptionPage';
import type { PageKey } from './routeGating';

export interface PageEntry {
  component: ComponentType;
  /** Rendered inside the signed-in header + bottom navigation. */
  shell: boolean;
}

export const PAGES: Partial<Record<PageKey, PageEntry>> = {
  landing: { component: LandingPage, shell: false },
  auth: { component: AuthPage, shell: false },
  dashboard: { component: DashboardPage, shell: true },
  subscription: { component: SubscriptionPage, shell: true },
  settings: { component: SettingsPage, shell: true },
};
