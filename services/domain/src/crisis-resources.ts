/**
 * Haven's one crisis-resource dataset: for each country its emergency number and the free crisis lines
 * that could be confirmed, each with the page it was confirmed from and the day. Every crisis surface (the
 * composer's crisis reply, the help page, the public pages, e-mail) reads it from here; a number spelled
 * anywhere else fails `crisis-resources.test.ts`. A line that cannot be confirmed is left out: its country
 * gets the directory and its emergency number. Pure data, no I/O.
 */

/** A free line a person can reach right now. */
export interface CrisisLine {
  name: string;
  /** What to do, in a few plain words: "Call 116 123 (free, 24 hours)". */
  action: string;
  /** A tel:, sms: or https: link the page can offer as one tap. */
  href: string;
  /** The helpline's own site, or a national health service page, that states the number. */
  source: string;
  /** The day the number was checked against `source`, yyyy-mm-dd. */
  checked: string;
}

export interface EmergencyNumber {
  /** The number for an ambulance when life is in danger (the general number where there is one). */
  number: string;
  source: string;
  checked: string;
}

export interface CountryHelp {
  /** ISO 3166-1 alpha-2. */
  code: string;
  name: string;
  emergency: EmergencyNumber;
  lines: readonly CrisisLine[];
  /** The IANA zones a browser in this country reports: the country's guess until the person picks one. */
  timeZones: readonly string[];
}

/** Where anyone, anywhere, finds a local line: the fallback beside every country without a confirmed one. */
export const helplineDirectory = {
  name: 'Find A Helpline',
  action: 'Free, confidential helplines in your country',
  href: 'https://findahelpline.com',
} as const;

const checked = '2026-11-27';
const eu112 = 'https://digital-strategy.ec.europa.eu/en/policies/112';

const samaritans: CrisisLine = {
  name: 'Samaritans',
  action: 'Call 116 123 (free, 24 hours)',
  href: 'tel:116123',
  source: 'https://www.samaritans.org/how-we-can-help/contact-samaritan/',
  checked,
};

/** Switzerland's and Liechtenstein's one line. */
const dargeboteneHand: CrisisLine = {
  name: 'Die Dargebotene Hand',
  action: 'Call 143 (free, 24 hours, in German, French and Italian)',
  href: 'tel:143',
  source: 'https://www.143.ch',
  checked,
};

/** An EU member state: 112 reaches the ambulance everywhere in the Union. */
function euCountry(code: string, name: string, timeZones: string[], lines: CrisisLine[] = []): CountryHelp {
  return { code, name, emergency: { number: '112', source: eu112, checked }, lines, timeZones };
}

function country(
  code: string,
  name: string,
  number: string,
  source: string,
  timeZones: string[],
  lines: CrisisLine[] = [],
): CountryHelp {
  return { code, name, emergency: { number, source, checked }, lines, timeZones };
}

export const countryHelp: readonly CountryHelp[] = [
  country(
    'GB',
    'United Kingdom',
    '999',
    'https://www.nhs.uk/nhs-services/urgent-and-emergency-care-services/when-to-call-999/',
    ['Europe/London', 'Europe/Belfast'],
    [
      samaritans,
      {
        name: 'Shout',
        action: 'Text SHOUT to 85258',
        href: 'sms:85258?body=SHOUT',
        source: 'https://giveusashout.org',
        checked,
      },
    ],
  ),
  country(
    'US',
    'United States',
    '911',
    'https://www.911.gov',
    [
      'America/New_York',
      'America/Detroit',
      'America/Indiana/Indianapolis',
      'America/Kentucky/Louisville',
      'America/Chicago',
      'America/Denver',
      'America/Boise',
      'America/Phoenix',
      'America/Los_Angeles',
      'America/Anchorage',
      'America/Adak',
      'Pacific/Honolulu',
      'America/Puerto_Rico',
    ],
    [
      {
        name: '988 Suicide & Crisis Lifeline',
        action: 'Call or text 988 (free, 24 hours)',
        href: 'tel:988',
        source: 'https://988lifeline.org',
        checked,
      },
    ],
  ),
  euCountry('IE', 'Ireland', ['Europe/Dublin'], [{ ...samaritans, source: 'https://www.samaritans.org/ireland/' }]),
  country(
    'CA',
    'Canada',
    '911',
    'https://www.getprepared.gc.ca',
    [
      'America/Toronto',
      'America/Vancouver',
      'America/Edmonton',
      'America/Winnipeg',
      'America/Halifax',
      'America/St_Johns',
      'America/Regina',
      'America/Moncton',
      'America/Whitehorse',
      'America/Yellowknife',
      'America/Iqaluit',
    ],
    [
      {
        name: '9-8-8: Suicide Crisis Helpline',
        action: 'Call or text 988 (free, 24 hours, English and French)',
        href: 'tel:988',
        source: 'https://988.ca',
        checked,
      },
    ],
  ),
  country(
    'AU',
    'Australia',
    '000',
    'https://www.triplezero.gov.au',
    [
      'Australia/Sydney',
      'Australia/Melbourne',
      'Australia/Brisbane',
      'Australia/Adelaide',
      'Australia/Perth',
      'Australia/Hobart',
      'Australia/Darwin',
    ],
    [
      {
        name: 'Lifeline',
        action: 'Call 13 11 14 (24 hours)',
        href: 'tel:131114',
        source: 'https://www.lifeline.org.au',
        checked,
      },
    ],
  ),
  country(
    'NZ',
    'New Zealand',
    '111',
    'https://www.police.govt.nz',
    ['Pacific/Auckland', 'Pacific/Chatham'],
    [
      {
        name: 'Need to talk? 1737',
        action: 'Call or text 1737 (free, 24 hours)',
        href: 'tel:1737',
        source: 'https://1737.org.nz',
        checked,
      },
    ],
  ),
  euCountry(
    'AT',
    'Austria',
    ['Europe/Vienna'],
    [
      {
        name: 'TelefonSeelsorge',
        action: 'Call 142 (free, 24 hours)',
        href: 'tel:142',
        source: 'https://www.telefonseelsorge.at',
        checked,
      },
    ],
  ),
  euCountry(
    'BE',
    'Belgium',
    ['Europe/Brussels'],
    [
      {
        name: 'Zelfmoordlijn 1813',
        action: 'Call 1813 (free, in Dutch)',
        href: 'tel:1813',
        source: 'https://zelfmoordlijn1813.be/over-deze-website-en-de-organisaties',
        checked: '2026-11-28',
      },
      {
        name: 'Centre de Prévention du Suicide',
        action: 'Call 0800 32 123 (24 hours, in French)',
        href: 'tel:080032123',
        source: 'https://www.preventionsuicide.be/fr/activitescps/ligne0800.html',
        checked: '2026-11-28',
      },
    ],
  ),
  euCountry('BG', 'Bulgaria', ['Europe/Sofia']),
  euCountry('HR', 'Croatia', ['Europe/Zagreb']),
  euCountry('CY', 'Cyprus', ['Asia/Nicosia', 'Europe/Nicosia', 'Asia/Famagusta']),
  euCountry('CZ', 'Czechia', ['Europe/Prague']),
  euCountry('DK', 'Denmark', ['Europe/Copenhagen']),
  euCountry('EE', 'Estonia', ['Europe/Tallinn']),
  euCountry(
    'FI',
    'Finland',
    ['Europe/Helsinki'],
    [
      {
        name: 'MIELI Crisis Helpline',
        action: 'Call 09 2525 0111 (24 hours, in Finnish; your usual call rate)',
        href: 'tel:0925250111',
        source: 'https://mieli.fi',
        checked,
      },
    ],
  ),
  euCountry(
    'FR',
    'France',
    ['Europe/Paris'],
    [
      {
        name: '3114, the national suicide prevention line',
        action: 'Call 3114 (free, 24 hours)',
        href: 'tel:3114',
        source: 'https://3114.fr',
        checked,
      },
    ],
  ),
  euCountry(
    'DE',
    'Germany',
    ['Europe/Berlin', 'Europe/Busingen'],
    [
      {
        name: 'TelefonSeelsorge',
        action: 'Call 0800 111 0 111 or 0800 111 0 222 (free, 24 hours)',
        href: 'tel:08001110111',
        source: 'https://www.telefonseelsorge.de',
        checked,
      },
    ],
  ),
  euCountry('GR', 'Greece', ['Europe/Athens']),
  euCountry('HU', 'Hungary', ['Europe/Budapest']),
  euCountry('IT', 'Italy', ['Europe/Rome']),
  euCountry('LV', 'Latvia', ['Europe/Riga']),
  euCountry('LT', 'Lithuania', ['Europe/Vilnius']),
  euCountry('LU', 'Luxembourg', ['Europe/Luxembourg']),
  euCountry('MT', 'Malta', ['Europe/Malta']),
  euCountry(
    'NL',
    'Netherlands',
    ['Europe/Amsterdam'],
    [
      {
        name: '113 Zelfmoordpreventie',
        action: 'Call 113 or 0800 0113 (free, 24 hours)',
        href: 'tel:113',
        source: 'https://www.113.nl',
        checked,
      },
    ],
  ),
  euCountry(
    'PL',
    'Poland',
    ['Europe/Warsaw'],
    [
      {
        name: 'Centrum Wsparcia',
        action: 'Call 800 70 2222 (free, 24 hours, in Polish)',
        href: 'tel:800702222',
        source: 'https://centrumwsparcia.pl',
        checked: '2026-11-28',
      },
    ],
  ),
  euCountry(
    'PT',
    'Portugal',
    ['Europe/Lisbon', 'Atlantic/Madeira', 'Atlantic/Azores'],
    [
      {
        name: 'SNS 24 psychological counselling',
        action: 'Call 808 24 24 24, then press 4 for a psychologist (24 hours)',
        href: 'tel:808242424',
        source: 'https://www.sns24.gov.pt/en/servico/aconselhamento-psicologico-no-sns-24/',
        checked: '2026-11-28',
      },
    ],
  ),
  euCountry('RO', 'Romania', ['Europe/Bucharest']),
  euCountry('SK', 'Slovakia', ['Europe/Bratislava']),
  euCountry('SI', 'Slovenia', ['Europe/Ljubljana']),
  euCountry(
    'ES',
    'Spain',
    ['Europe/Madrid', 'Atlantic/Canary', 'Africa/Ceuta'],
    [
      {
        name: 'Línea 024',
        action: 'Call 024 (free, 24 hours)',
        href: 'tel:024',
        source: 'https://www.sanidad.gob.es',
        checked,
      },
    ],
  ),
  euCountry(
    'SE',
    'Sweden',
    ['Europe/Stockholm'],
    [
      {
        name: 'Självmordslinjen (Mind)',
        action: 'Call 90101 (24 hours)',
        href: 'tel:90101',
        source: 'https://mind.se',
        checked,
      },
    ],
  ),
  country('IS', 'Iceland', '112', 'https://www.112.is', ['Atlantic/Reykjavik']),
  country(
    'NO',
    'Norway',
    '113',
    'https://www.helsenorge.no',
    ['Europe/Oslo'],
    [
      {
        name: 'Mental Helse Hjelpetelefonen',
        action: 'Call 116 123 (free, 24 hours, in Norwegian)',
        href: 'tel:116123',
        source: 'https://mentalhelse.no',
        checked: '2026-11-28',
      },
    ],
  ),
  country('CH', 'Switzerland', '144', 'https://www.ch.ch', ['Europe/Zurich'], [dargeboteneHand]),
  country('LI', 'Liechtenstein', '112', 'https://www.llv.li', ['Europe/Vaduz'], [dargeboteneHand]),
  country('AD', 'Andorra', '112', 'https://www.govern.ad', ['Europe/Andorra']),
  country('MC', 'Monaco', '112', 'https://www.gouv.mc', ['Europe/Monaco']),
  country('GE', 'Georgia', '112', 'https://112.gov.ge', ['Asia/Tbilisi']),
  country('MD', 'Moldova', '112', 'https://112.md', ['Europe/Chisinau']),
  country('TR', 'Türkiye', '112', 'https://www.112.gov.tr', ['Europe/Istanbul']),
  country('RU', 'Russia', '112', 'https://www.mchs.gov.ru', [
    'Europe/Moscow',
    'Europe/Kaliningrad',
    'Europe/Samara',
    'Asia/Yekaterinburg',
    'Asia/Omsk',
    'Asia/Novosibirsk',
    'Asia/Krasnoyarsk',
    'Asia/Irkutsk',
    'Asia/Yakutsk',
    'Asia/Vladivostok',
    'Asia/Magadan',
    'Asia/Kamchatka',
  ]),
  country('IL', 'Israel', '101', 'https://www.mdais.org', ['Asia/Jerusalem', 'Asia/Tel_Aviv']),
  country('AE', 'United Arab Emirates', '998', 'https://u.ae', ['Asia/Dubai']),
  country('SA', 'Saudi Arabia', '997', 'https://www.moh.gov.sa', ['Asia/Riyadh']),
  country('QA', 'Qatar', '999', 'https://hukoomi.gov.qa', ['Asia/Qatar']),
  country(
    'IN',
    'India',
    '112',
    'https://112.gov.in',
    ['Asia/Kolkata', 'Asia/Calcutta'],
    [
      {
        name: 'Tele MANAS',
        action: 'Call 14416 (free, 24 hours, in 20 languages)',
        href: 'tel:14416',
        source: 'https://telemanas.mohfw.gov.in',
        checked,
      },
    ],
  ),
  country('BD', 'Bangladesh', '999', 'https://999.gov.bd', ['Asia/Dhaka']),
  country('LK', 'Sri Lanka', '1990', 'https://www.1990.lk', ['Asia/Colombo']),
  country('CN', 'China', '120', 'https://www.nhc.gov.cn', ['Asia/Shanghai', 'Asia/Urumqi']),
  country('HK', 'Hong Kong', '999', 'https://www.police.gov.hk', ['Asia/Hong_Kong']),
  country('TW', 'Taiwan', '119', 'https://www.nfa.gov.tw', ['Asia/Taipei']),
  country('JP', 'Japan', '119', 'https://www.fdma.go.jp', ['Asia/Tokyo']),
  country('KR', 'South Korea', '119', 'https://www.nfa.go.kr', ['Asia/Seoul']),
  country(
    'SG',
    'Singapore',
    '995',
    'https://www.scdf.gov.sg',
    ['Asia/Singapore'],
    [
      {
        name: 'Samaritans of Singapore',
        action: 'Call 1767 (24 hours)',
        href: 'tel:1767',
        source: 'https://www.sos.org.sg',
        checked: '2026-11-28',
      },
    ],
  ),
  country('MY', 'Malaysia', '999', 'https://www.malaysia.gov.my', ['Asia/Kuala_Lumpur', 'Asia/Kuching']),
  country('TH', 'Thailand', '1669', 'https://www.niems.go.th', ['Asia/Bangkok']),
  country('PH', 'Philippines', '911', 'https://e911.gov.ph', ['Asia/Manila']),
  country('ZA', 'South Africa', '10177', 'https://www.gov.za', ['Africa/Johannesburg']),
  country(
    'BR',
    'Brazil',
    '192',
    'https://www.gov.br/saude',
    [
      'America/Sao_Paulo',
      'America/Bahia',
      'America/Fortaleza',
      'America/Recife',
      'America/Belem',
      'America/Manaus',
      'America/Cuiaba',
      'America/Campo_Grande',
      'America/Porto_Velho',
      'America/Boa_Vista',
      'America/Rio_Branco',
      'America/Maceio',
      'America/Araguaina',
      'America/Santarem',
      'America/Noronha',
    ],
    [
      {
        name: 'CVV (Centro de Valorização da Vida)',
        action: 'Call 188 (free, 24 hours, in Portuguese)',
        href: 'tel:188',
        source: 'https://cvv.org.br',
        checked: '2026-11-28',
      },
    ],
  ),
  country('MX', 'Mexico', '911', 'https://www.gob.mx', [
    'America/Mexico_City',
    'America/Monterrey',
    'America/Merida',
    'America/Cancun',
    'America/Chihuahua',
    'America/Mazatlan',
    'America/Hermosillo',
    'America/Tijuana',
    'America/Matamoros',
    'America/Bahia_Banderas',
  ]),
  country('CL', 'Chile', '131', 'https://www.minsal.cl', ['America/Santiago', 'America/Punta_Arenas']),
  country('CO', 'Colombia', '123', 'https://www.gov.co', ['America/Bogota']),
];
