/**
 * The Terms of Service, in 13 numbered sections, true to what Haven does: the trial and
 * price, the payment provider, the AI provider without personal data, export and deletion.
 */
import { BRAND } from '../../brand';
import { PREMIUM_PRICE_LABEL, TRIAL_DAYS } from '../../constants';
import { MINIMUM_AGE } from './legal';
import { CONTACT_EMAIL } from './publicLinks';

export interface LegalSection {
  title: string;
  paragraphs: readonly string[];
}

const name = BRAND.name;

export const TERMS_SECTIONS: readonly LegalSection[] = [
  {
    title: 'Agreement to these terms',
    paragraphs: [
      `These terms are an agreement between you and ${name} about your use of the ${name} website and installable web app (the "service"). By creating an account or using the service you agree to them. If you do not agree, please do not use the service.`,
    ],
  },
  {
    title: 'What the service is',
    paragraphs: [
      `${name} is a personal wellness companion. You rate how you feel on 15 emotional dimensions, and the service answers with a supportive message written by an AI language model or chosen from our own library. You can save and share messages, see your history and trends, and choose which e-mails you receive.`,
    ],
  },
  {
    title: 'Not medical advice, and not for emergencies',
    paragraphs: [
      `${name} is not therapy, counselling or medical care, and it does not diagnose or treat any condition. Messages are general support, not professional advice. If you are in crisis, our "Need help now?" page lists free lines for your country, without signing in; if your life is in danger, call your local emergency number.`,
    ],
  },
  {
    title: 'Who may use the service',
    paragraphs: [
      `You must be at least ${MINIMUM_AGE} years old to use ${name}, and old enough in your country to agree to these terms (or have a parent or guardian agree for you). The service is not directed to children under ${MINIMUM_AGE}, and we close accounts we learn belong to them.`,
    ],
  },
  {
    title: 'Your account',
    paragraphs: [
      'You can sign up with an e-mail address and password, or sign in with Google or our single sign-on partner. Keep your password to yourself and tell us if you think someone else has used your account. You can sign out of every device from Settings.',
      'Please give a real e-mail address: we use it to verify your account, to reset your password and to send the messages you choose.',
    ],
  },
  {
    title: 'Free trial, subscription and billing',
    paragraphs: [
      `Premium gives you every feature. It starts with a ${TRIAL_DAYS}-day free trial when you add a payment card. Unless you cancel before the trial ends, the subscription then costs ${PREMIUM_PRICE_LABEL} per month, charged monthly in advance until you cancel.`,
      'Card details go straight to our payment provider (Stripe); we never see or store your full card number. If a payment fails, we tell you and ask you to update your card; access to premium features pauses until it is fixed.',
    ],
  },
  {
    title: 'Cancelling and refunds',
    paragraphs: [
      'You can cancel at any time from the Subscription page. If you cancel during the trial, you are not charged. If you cancel later, you keep premium access until the end of the period you paid for and are not charged again.',
      `Payments already made are not refunded for partial months, except where the law gives you a right to a refund (for example the cooling-off rights of consumers in the UK and EU) or where we charged you by mistake. Write to ${CONTACT_EMAIL} and we will look at every request.`,
    ],
  },
  {
    title: 'Your content and data',
    paragraphs: [
      `Your check-ins, notes and saved messages belong to you. You give ${name} permission to store and process them only to run the service for you, as described in our Privacy Policy. You can export your data or delete your account at any time; deletion removes your data from every part of the service.`,
    ],
  },
  {
    title: 'AI-generated messages',
    paragraphs: [
      'Messages are produced automatically. We work to keep them kind, safe and relevant, but they can be imperfect, and they are not a statement of fact about you. Only your ratings, the time of day and your notes (with names, addresses, phone, card and account numbers, dates of birth and links removed) are sent to the AI provider, never your account details.',
    ],
  },
  {
    title: 'Acceptable use',
    paragraphs: [
      'Please do not misuse the service: do not try to get into other accounts or our systems, overload or disrupt the service, copy it to build a competing product, or use it to harm anyone. We may suspend accounts that do.',
    ],
  },
  {
    title: 'Changes and availability',
    paragraphs: [
      `We improve ${name} over time and may change or stop features. We aim to keep the service available but cannot promise it will never be interrupted. If we change these terms in a way that matters, we will tell you by e-mail or in the app before the change takes effect.`,
    ],
  },
  {
    title: 'Our responsibility to you',
    paragraphs: [
      `${name} is provided as it is. As far as the law allows, we are not responsible for decisions you make based on the messages, or for losses we could not reasonably foresee. Nothing in these terms limits any right you have as a consumer that cannot be limited by law, or our responsibility for death or personal injury caused by our negligence.`,
    ],
  },
  {
    title: 'Contact and governing law',
    paragraphs: [
      `These terms are governed by the laws of England and Wales, and you may also bring a claim in the courts of the country where you live. Questions about these terms? Write to ${CONTACT_EMAIL}.`,
    ],
  },
];
