/**
 * The FAQ: 30 entries in six groups of five, with stable slugs (links point at them). Each answer is true to what Haven does;
 * the page and its FAQPage structured data are both built from this list.
 */
import { BRAND } from '../../brand';
import { PREMIUM_PRICE_LABEL, TRIAL_DAYS } from '../../constants';
import { CONTACT_EMAIL } from './publicLinks';

export interface FaqEntry {
  slug: string;
  question: string;
  /** Paragraphs of plain text. */
  answer: readonly string[];
}

export interface FaqGroup {
  title: string;
  entries: readonly FaqEntry[];
}

const name = BRAND.name;
const product = name.toLowerCase();

export const FAQ_GROUPS: readonly FaqGroup[] = [
  {
    title: 'Getting Started',
    entries: [
      {
        slug: `what-is-${product}`,
        question: `What is ${name}?`,
        answer: [
          `${name} is a personal emotional wellness companion. Each day you rate how you feel in a quick check-in, and ${name} answers with a short, supportive message written for that moment. Over time your history helps you notice your own patterns.`,
          `${name} is not therapy and does not replace professional care.`,
        ],
      },
      {
        slug: 'first-emotional-check-in',
        question: 'How do I do my first check-in?',
        answer: [
          `Create an account, start your ${TRIAL_DAYS}-day free trial, then open "You" in the bottom bar. Move each slider to how you feel right now, pick morning, afternoon or evening, add a note if you like, and ask for your message. It takes about a minute.`,
        ],
      },
      {
        slug: 'emotional-dimensions',
        question: 'What are the 15 emotional dimensions?',
        answer: [
          'They are everyday parts of how you feel, such as stress, focus, gratitude, confidence, motivation, sleep quality, sense of purpose and hope for the future. Each one is a slider from 1 to 5, starting in the middle at 3. There are no right answers: rate them as they are today.',
        ],
      },
      {
        slug: 'personalized-support',
        question: 'How is the support message personalised?',
        answer: [
          `Your message is shaped by your ratings (especially the ones that stand out most), the time of day and your notes. Morning messages look ahead to the day, afternoon ones help you reset and evening ones help you wind down. A hard day gets gentleness and one small, doable step; a good day gets a quiet celebration.`,
        ],
      },
      {
        slug: 'mental-health-professional',
        question: `Can ${name} replace a therapist or mental health professional?`,
        answer: [
          `No. ${name} supports self-awareness and wellness habits, but it is not therapy, it does not diagnose and it cannot treat anything. If you are struggling, please talk to a doctor or a mental health professional.`,
          'If you need to talk to someone now, our "Need help now?" page lists free lines for your country, without signing in. If your life is in danger, call your local emergency number.',
        ],
      },
    ],
  },
  {
    title: 'Account & Subscription',
    entries: [
      {
        slug: 'free-trial-included',
        question: 'What is included in the free trial?',
        answer: [
          `Everything. For the first ${TRIAL_DAYS} days every premium feature is unlocked. The trial starts when you add a payment card. If you cancel before it ends, you pay nothing; otherwise your subscription continues at ${PREMIUM_PRICE_LABEL} a month. The trial is once per e-mail address, also when an account is deleted and made again within three years.`,
        ],
      },
      {
        slug: 'upgrade-premium-plan',
        question: 'How do I start the premium plan?',
        answer: [
          `After you create an account, ${name} takes you to the Subscription page. Add a card there to start your free trial; Premium follows automatically when the trial ends. If your trial or a payment has lapsed, the same page lets you subscribe again or update your card.`,
        ],
      },
      {
        slug: 'cancel-subscription',
        question: 'How do I cancel my subscription?',
        answer: [
          'Open Settings, then Subscription, and choose Cancel. During the trial you are not charged at all. After the trial, you keep premium access until the end of the month you paid for, and you are not charged again. You can reactivate before that date.',
          'Cancelling keeps your data. If you want it gone too, delete your account.',
        ],
      },
      {
        slug: 'billing-plan-details',
        question: 'How much does it cost, and how am I billed?',
        answer: [
          `There is one plan: ${PREMIUM_PRICE_LABEL} a month after a ${TRIAL_DAYS}-day free trial, charged monthly to your card through our payment provider, Stripe. The Subscription page shows your plan, trial dates, next renewal and payment status. We never see or store your full card number.`,
        ],
      },
      {
        slug: 'refund-policy',
        question: 'What is your refund policy?',
        answer: [
          'Cancel during the free trial and you are never charged. After that, payments already made are not refunded for part of a month, but your access continues until the end of the month you paid for.',
          `Refunds also depend on your plan, timing and local consumer law: if you think you were charged by mistake, or you are within a legal cooling-off period, write to ${CONTACT_EMAIL} and a person will look at it.`,
        ],
      },
    ],
  },
  {
    title: `Using ${name}`,
    entries: [
      {
        slug: 'daily-check-in-habits',
        question: 'How often should I check in?',
        answer: [
          'Once a day is a good rhythm, at whatever time suits you. Some people like a morning check-in to start the day, others an evening one to let it go. There is no wrong time, and a missed day is simply a missed day.',
        ],
      },
      {
        slug: 'mood-tracking-insights',
        question: 'What do mood tracking and insights show me?',
        answer: [
          'Analytics shows your average mood on the 1 to 5 scale, a chart of your recent check-ins, whether your mood is trending up, down or steady, your streaks and short insights drawn from your history. It is there to help you notice patterns, not to grade you.',
          'If you like, turn on "Your week in review" on your e-mail preferences page: each Sunday morning you get a short summary of your week in numbers only (check-ins, average mood and its direction), never your notes or messages.',
        ],
      },
      {
        slug: 'save-supportive-messages',
        question: 'Can I save messages I like?',
        answer: [
          'Yes. Tap the heart on any message to add it to your favourites, and tap it again to remove it. Your favourites collection keeps the words that helped, ready for a day you need them again.',
        ],
      },
      {
        slug: 'share-quote-message',
        question: 'How do I share a message?',
        answer: [
          `Tap Share on a message. On phones and browsers that support it, your device's own share sheet opens; otherwise the message is copied to your clipboard. Sharing happens on your device: ${name} does not see where you send it.`,
        ],
      },
      {
        slug: 'streak-tracking',
        question: 'How does streak tracking work?',
        answer: [
          'Your streak counts the days in a row with at least one check-in, in your own time zone. A missed day starts it again from zero, and we also show your longest streak.',
          'Streaks are there for you to notice, never to pressure you. We never send reminders about a broken streak, and when you come back after a break we just welcome you back.',
        ],
      },
    ],
  },
  {
    title: 'Data & Privacy',
    entries: [
      {
        slug: 'emotional-data-privacy',
        question: 'Is my emotional data private?',
        answer: [
          `Yes. Your check-ins are visible only to you. We never sell your data or use it for advertising. The AI provider receives only your ratings, the time of day and your notes with names, addresses, phone, card and account numbers, dates of birth and links removed: never your name, e-mail address or account id.`,
        ],
      },
      {
        slug: 'data-collection-export',
        question: 'What data do you collect, and can I export it?',
        answer: [
          'We keep your account details (e-mail, name, time zone, preferences), your check-ins and notes, your messages and favourites, your safety plan if you write one (only ever shown to you), your subscription status and your e-mail choices. Card details stay with our payment provider.',
          'You can download everything as one JSON file from Settings at any time, whatever your subscription. Your messages and check-ins are also available as a spreadsheet (CSV).',
        ],
      },
      {
        slug: 'data-preferences-consent',
        question: 'Can I choose what is stored and analysed?',
        answer: [
          'Yes. In Settings, under Data & Privacy, turn off "Keep check-in notes" and the notes box is hidden: from then on nothing you would have written there is sent or saved. Turn off "Insights from your history" to opt out of analysis: no insights are worked out or shown (they are never stored, so nothing is left behind).',
          `${name} uses only essential cookies, and the cookie banner lets you say no to anything else. Your e-mail preferences let you pick each kind of e-mail. You can change or withdraw any choice at any time.`,
        ],
      },
      {
        slug: 'gdpr-compliant',
        question: `Is ${name} GDPR compliant?`,
        answer: [
          'We built it around the rights that GDPR and the UK GDPR give you: access, correction, deletion, a copy of your data, withdrawing consent and objecting. Export and deletion work from Settings for every user, whatever their subscription.',
          'Deleting your account closes it at once (signed out everywhere, subscription cancelled), then erases your data from every part of the service. Read the Privacy Policy for the details.',
        ],
      },
      {
        slug: 'login-protection',
        question: 'How is my account protected?',
        answer: [
          'Passwords are stored only as secure hashes, your session lives in a cookie that page scripts cannot read, and sign-in attempts are rate-limited. Google and single sign-on use the standard OpenID Connect flow. You can change your password and sign out of every device from Settings, and we e-mail you when your password or e-mail address changes or a new way to sign in is linked.',
        ],
      },
    ],
  },
  {
    title: 'Features & Enhancements',
    entries: [
      {
        slug: 'personal-wellness-library',
        question: 'What is my personal wellness library?',
        answer: [
          'It is your collection of saved messages, plus your recent ones on the home screen and your full history on the Progress page, so the words that helped are always close at hand.',
        ],
      },
      {
        slug: 'ai-generated-vs-generic',
        question: 'How are the messages different from generic quotes?',
        answer: [
          `Generic quotes are the same for everyone. ${name}'s messages respond to what you just rated, such as a heavy day for sleep and focus, and to the time of day, and they offer one small step instead of a slogan. When the AI provider is unavailable, ${name} picks from its own library of hundreds of messages written for particular feelings and times of day, and avoids repeating ones you saw recently.`,
        ],
      },
      {
        slug: 'check-in-time-context',
        question: 'Why does the check-in ask for the time of day?',
        answer: [
          'Because what helps changes through the day. Morning messages help you look ahead, afternoon ones help you reset, and evening ones help you wind down and let the day go.',
        ],
      },
      {
        slug: 'mood-patterns-scoring',
        question: 'How is my mood score calculated?',
        answer: [
          'Each check-in has a mood on the same 1 to 5 scale as the sliders. Your average mood is shown as green from 4, yellow from 3 and red below 3, always with the number too. The trend compares your more recent check-ins with the earlier ones: a difference of more than 0.3 shows as up or down, anything smaller as steady.',
        ],
      },
      {
        slug: 'dark-mode-theming',
        question: 'Is there a dark mode?',
        answer: [
          `Yes. ${name} follows your device's light or dark setting until you choose one yourself with the Dark Mode switch in Settings. Your choice is remembered on that device.`,
        ],
      },
    ],
  },
  {
    title: 'Technical & Support',
    entries: [
      {
        slug: 'installable-app',
        question: `Can I install ${name} on my phone or computer?`,
        answer: [
          `Yes. ${name} is an installable web app. On Android or in Chrome and Edge, choose "Install app" or "Add to Home screen" from the browser menu; on iPhone and iPad, tap Share in Safari, then "Add to Home Screen". It then opens in its own window, and starts even on a weak connection. Your data is always fetched fresh and never kept in the app's offline copy.`,
        ],
      },
      {
        slug: 'supported-devices-browsers',
        question: 'Which devices and browsers are supported?',
        answer: [
          `${name} works in current versions of Chrome, Edge, Firefox and Safari on phones, tablets and computers. It needs JavaScript, and it works with a keyboard and with screen readers.`,
        ],
      },
      {
        slug: 'verification-email-issues',
        question: 'I did not get my verification e-mail. What can I do?',
        answer: [
          'Check your spam or junk folder first. You can ask for a new link from the sign-in screen or from the verification page; links expire after a while and each works once, so always use the newest one. If it still does not arrive, write to us.',
        ],
      },
      {
        slug: 'report-bug-get-help',
        question: 'How do I report a problem or get help?',
        answer: [
          `Write to ${CONTACT_EMAIL} and tell us what happened, on which device and browser. A person reads every message. If you are in crisis, please use the crisis lines on our "Need help now?" page instead: we cannot answer urgently.`,
        ],
      },
      {
        slug: 'deep-link-entries',
        question: 'Can I link straight to a check-in or an answer here?',
        answer: [
          `Yes. Every answer on this page has its own address: opening one adds its name to the address bar (for example /faq#refund-policy), so you can share it or bookmark it. The check-in page has its own address too (/sliders), for a home-screen shortcut.`,
        ],
      },
    ],
  },
];

export const FAQ_ENTRIES: readonly FaqEntry[] = FAQ_GROUPS.flatMap((group) => group.entries);
