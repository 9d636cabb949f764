/**
 * Haven's crisis-help dataset: each country's emergency number and the crisis lines confirmed for it (free
 * unless their action says otherwise), each fact with the page it was confirmed from and the day it was read. A line that cannot be confirmed is
 * left out (the country gets the directory): a wrong number is worse than none. Read only through
 * `support-resources.ts`.
 */
import type { Confirmation, CountryHelp, SupportResource } from './support-resources';

/** For a country without a confirmed line, and for anyone whose country Haven does not know. */
export const CRISIS_DIRECTORY: SupportResource = {
  name: 'Find A Helpline',
  action: 'Free, confidential helplines in your country',
  href: 'https://findahelpline.com',
};

/** The day every fact below was last read from its source. */
const checked = '2026-11-27';

/** The European Commission's page on 112, the single emergency number in every EU member state. */
const EU_112: Confirmation = {
  url: 'https://digital-strategy.ec.europa.eu/en/news/112-day-saving-lives-quickly-and-easily-reaching-emergency-services-anywhere-eu',
  checked,
};

/** Sorted by ISO code. */
export const CRISIS_COUNTRIES: readonly CountryHelp[] = [
  {
    code: 'AE',
    name: 'United Arab Emirates',
    emergency: {
      number: '998 or 999',
      source: {
        url: 'https://citiesinsider.com/country/united-arab-emirates/sharjah/emergency-communication/en',
        checked,
      },
    },
    lines: [],
  },
  {
    code: 'AR',
    name: 'Argentina',
    emergency: { number: '107 or 911', source: { url: 'https://www.surenio.com.ar/?p=431246', checked } },
    lines: [],
  },
  {
    code: 'AT',
    name: 'Austria',
    emergency: { number: '112', source: EU_112 },
    lines: [
      {
        name: 'Telefonseelsorge',
        action: 'Call 142 (free, 24 hours)',
        href: 'tel:142',
        hours: '24 hours, every day',
        languages: ['German'],
        source: { url: 'https://www.katholisch.at/telefonseelsorge', checked },
      },
    ],
  },
  {
    code: 'AU',
    name: 'Australia',
    emergency: {
      number: '000',
      source: { url: 'https://cfs.sa.gov.au/warnings-and-incidents/call-triple-zero-in-an-emergency/', checked },
    },
    lines: [
      {
        name: 'Lifeline',
        action: 'Call 13 11 14 (24 hours)',
        href: 'tel:131114',
        hours: '24 hours, every day',
        languages: ['English'],
        source: { url: 'https://lifeinmind.org.au/news/lifelines-crisis-text-service-now-available-24-7', checked },
      },
      {
        name: 'Lifeline text',
        action: 'Text 0477 13 11 14 (24 hours)',
        href: 'sms:0477131114',
        hours: '24 hours, every day',
        languages: ['English'],
        source: { url: 'https://lifeinmind.org.au/news/lifelines-crisis-text-service-now-available-24-7', checked },
      },
    ],
  },
  {
    code: 'BE',
    name: 'Belgium',
    emergency: { number: '112', source: EU_112 },
    lines: [
      {
        name: 'Zelfmoordlijn 1813',
        action: 'Call 1813 (free, 24 hours)',
        href: 'tel:1813',
        hours: '24 hours, every day',
        languages: ['Dutch'],
        source: { url: 'https://www.hbvl.be/cnt/dmf20211130_93272468', checked },
      },
    ],
  },
  { code: 'BG', name: 'Bulgaria', emergency: { number: '112', source: EU_112 }, lines: [] },
  {
    code: 'BR',
    name: 'Brazil',
    emergency: { number: '192', source: { url: 'https://vivaosus.com/samu-192', checked } },
    lines: [],
  },
  {
    code: 'CA',
    name: 'Canada',
    emergency: {
      number: '911',
      source: { url: 'https://www.gnb.ca/en/topic/laws-safety/community-safety/911.html', checked },
    },
    lines: [
      {
        name: '9-8-8 Suicide Crisis Helpline',
        action: 'Call or text 988',
        href: 'tel:988',
        hours: '24 hours, every day',
        languages: ['English', 'French'],
        source: { url: 'https://mentalhealthcommission.ca/catalyst/988-launches-in-canada/', checked },
      },
    ],
  },
  {
    code: 'CH',
    name: 'Switzerland',
    emergency: {
      number: '144',
      source: { url: 'https://www.iamexpat.ch/expat-info/swiss-emergency-numbers-services', checked },
    },
    lines: [
      {
        // Not free of charge: a call costs 20 centimes, however long it lasts (per the source).
        name: 'Die Dargebotene Hand / La Main Tendue / Telefono Amico',
        action: 'Call 143 (24 hours)',
        href: 'tel:143',
        hours: '24 hours, every day',
        languages: ['German', 'French', 'Italian'],
        source: { url: 'https://zuerich.143.ch/Service/FAQ', checked },
      },
    ],
  },
  {
    code: 'CL',
    name: 'Chile',
    emergency: {
      number: '131',
      source: {
        url: 'https://www.latercera.com/nacional/noticia/pinera-anuncia-iniciativa-para-crear-el-primer-sistema-integrado-de-atencion-de-emergencias-del-pais/IYLDL4TRDJHU7CZS6TPJHFHYVU/',
        checked,
      },
    },
    lines: [],
  },
  {
    code: 'CN',
    name: 'China',
    emergency: {
      number: '120',
      source: { url: 'https://www.cultureyard.net/blog/emergency-numbers-in-china', checked },
    },
    lines: [],
  },
  {
    code: 'CO',
    name: 'Colombia',
    emergency: {
      number: '123',
      source: {
        url: 'https://wradio.com.co/2023/08/25/numero-para-llamar-a-emergencias-es-el-mismo-en-toda-colombia/?outputType=amp',
        checked,
      },
    },
    lines: [],
  },
  { code: 'CY', name: 'Cyprus', emergency: { number: '112', source: EU_112 }, lines: [] },
  {
    code: 'CZ',
    name: 'Czechia',
    emergency: { number: '112', source: EU_112 },
    lines: [
      {
        name: 'Linka první psychické pomoci',
        action: 'Call 116 123 (free)',
        href: 'tel:116123',
        languages: ['Czech'],
        source: {
          url: 'https://www.irozhlas.cz/zpravy-domov/bezplatna-linka-psychicke-pomoci-omezuje-provoz-prosinec-je-pritom_2412080600_job',
          checked,
        },
      },
    ],
  },
  {
    code: 'DE',
    name: 'Germany',
    emergency: { number: '112', source: EU_112 },
    lines: [
      {
        name: 'TelefonSeelsorge',
        action: 'Call 0800 111 0 111 (free, 24 hours)',
        href: 'tel:08001110111',
        hours: '24 hours, every day',
        languages: ['German'],
        source: { url: 'https://www.domradio.de/glossar/telefonseelsorge-0', checked },
      },
      {
        name: 'TelefonSeelsorge',
        action: 'Call 0800 111 0 222 (free, 24 hours)',
        href: 'tel:08001110222',
        hours: '24 hours, every day',
        languages: ['German'],
        source: { url: 'https://www.domradio.de/glossar/telefonseelsorge-0', checked },
      },
    ],
  },
  {
    code: 'DK',
    name: 'Denmark',
    emergency: { number: '112', source: EU_112 },
    lines: [
      {
        name: 'Livslinien',
        action: 'Call 70 201 201',
        href: 'tel:70201201',
        languages: ['Danish'],
        source: {
          url: 'https://cphpost.dk/2015-10-26/news/suicide-prevention-lifeline-gets-funding-to-stay-open-at-night/',
          checked,
        },
      },
    ],
  },
  { code: 'EE', name: 'Estonia', emergency: { number: '112', source: EU_112 }, lines: [] },
  {
    code: 'EG',
    name: 'Egypt',
    emergency: {
      number: '123',
      source: { url: 'https://www.justlanded.com/english/Egypt/Egypt-Guide/Health/Emergencies', checked },
    },
    lines: [],
  },
  {
    code: 'ES',
    name: 'Spain',
    emergency: { number: '112', source: EU_112 },
    lines: [
      {
        name: 'Línea 024 de atención a la conducta suicida',
        action: 'Call 024 (free, 24 hours)',
        href: 'tel:024',
        hours: '24 hours, every day',
        languages: ['Spanish'],
        source: {
          url: 'https://www.rtve.es/noticias/20220509/sanidad-presenta-telefono-prevencion-suicidio/2347183.shtml',
          checked,
        },
      },
    ],
  },
  {
    code: 'FI',
    name: 'Finland',
    emergency: { number: '112', source: EU_112 },
    lines: [
      {
        // MIELI does not charge, but the caller's operator does (per the source).
        name: 'MIELI Crisis Helpline',
        action: 'Call 09 2525 0111 (24 hours)',
        href: 'tel:0925250111',
        hours: '24 hours, every day',
        languages: ['Finnish'],
        source: { url: 'https://mentalhealth.fi/where-to-go-in-an-emergency', checked },
      },
    ],
  },
  {
    code: 'FR',
    name: 'France',
    emergency: { number: '112', source: EU_112 },
    lines: [
      {
        name: '3114, numéro national de prévention du suicide',
        action: 'Call 3114 (free, 24 hours)',
        href: 'tel:3114',
        hours: '24 hours, every day',
        languages: ['French'],
        source: { url: 'https://3114.fr/que-se-passe-t-il-quand-je-contacte-le-3114/', checked },
      },
    ],
  },
  {
    code: 'GB',
    name: 'United Kingdom',
    emergency: {
      number: '999',
      source: { url: 'https://www.nhs.uk/nhs-services/urgent-and-emergency-care-services/when-to-call-999/', checked },
    },
    lines: [
      {
        name: 'Samaritans',
        action: 'Call 116 123 (free, 24 hours)',
        href: 'tel:116123',
        hours: '24 hours, every day',
        languages: ['English'],
        source: { url: 'https://www.samaritans.org/how-we-can-help/contact-samaritan/', checked },
      },
      {
        name: 'Shout',
        action: 'Text SHOUT to 85258',
        href: 'sms:85258?body=SHOUT',
        hours: '24 hours, every day',
        languages: ['English'],
        source: { url: 'https://giveusashout.org/', checked },
      },
    ],
  },
  {
    code: 'GR',
    name: 'Greece',
    emergency: { number: '112', source: EU_112 },
    lines: [
      {
        name: 'Klimaka suicide intervention line',
        action: 'Call 1018 (24 hours)',
        href: 'tel:1018',
        hours: '24 hours, every day',
        languages: ['Greek'],
        source: {
          url: 'https://www.reader.gr/ygeia/pagkosmia-imera-psyhikis-ygeias-oles-oi-tilefonikes-grammes-kai-oi-foreis-poy-prosferoyn-dorean/618464',
          checked,
        },
      },
    ],
  },
  {
    code: 'HK',
    name: 'Hong Kong',
    emergency: {
      number: '999',
      source: { url: 'https://www.police.gov.hk/ppp_en/01_about_us/pp_operation.html', checked },
    },
    lines: [],
  },
  { code: 'HR', name: 'Croatia', emergency: { number: '112', source: EU_112 }, lines: [] },
  {
    code: 'HU',
    name: 'Hungary',
    emergency: { number: '112', source: EU_112 },
    lines: [
      {
        name: 'Lelki Elsősegély Telefonszolgálat',
        action: 'Call 116 123 (free, 24 hours)',
        href: 'tel:116123',
        hours: '24 hours, every day',
        languages: ['Hungarian'],
        source: {
          url: 'https://gondola.hu/hirek/248389-Iden_is_korulbelul_170_ezer_hivast_fogadott_a_lelkielsosegely-szolgalat.html',
          checked,
        },
      },
    ],
  },
  {
    code: 'ID',
    name: 'Indonesia',
    emergency: {
      number: '112 or 119',
      source: {
        url: 'https://kids.grid.id/read/473467733/telepon-darurat-di-indonesia-basarnas-kepolisian-hingga-ambulance?page=all',
        checked,
      },
    },
    lines: [],
  },
  {
    code: 'IE',
    name: 'Ireland',
    emergency: { number: '112 or 999', source: EU_112 },
    lines: [
      {
        name: 'Samaritans',
        action: 'Call 116 123 (free, 24 hours)',
        href: 'tel:116123',
        hours: '24 hours, every day',
        languages: ['English'],
        source: {
          url: 'https://www.irishexaminer.com/breakingnews/ireland/samaritans-answer-29m-calls-since-2014-charity-to-play-crucial-role-in-new-mental-help-phone-service-914684.html',
          checked,
        },
      },
    ],
  },
  {
    code: 'IL',
    name: 'Israel',
    emergency: {
      number: '101',
      source: {
        url: 'https://www.jpost.com/Israel-News/Israeli-ambulance-service-prepares-bolstered-emergency-teams-for-High-Holidays-505002',
        checked,
      },
    },
    lines: [
      {
        name: 'ERAN Emotional First Aid',
        action: 'Call 1201 (24 hours)',
        href: 'tel:1201',
        hours: '24 hours, every day',
        languages: ['Hebrew', 'Arabic', 'Russian'],
        source: { url: 'https://jerusaleminstitute.org.il/en/blog/with-days-like-this/', checked },
      },
    ],
  },
  {
    code: 'IN',
    name: 'India',
    emergency: {
      number: '112',
      source: {
        url: 'https://en.vikaspedia.in/social-welfare/women-and-child-development/emergency-response-support-system',
        checked,
      },
    },
    lines: [
      {
        name: 'Tele MANAS',
        action: 'Call 14416 (free, 24 hours)',
        href: 'tel:14416',
        hours: '24 hours, every day',
        source: {
          url: 'https://theshillongtimes.com/2025/02/07/tele-manas-mental-health-helpline-handles-over-18-1-lakh-calls-centre/',
          checked,
        },
      },
    ],
  },
  {
    code: 'IS',
    name: 'Iceland',
    emergency: { number: '112', source: { url: 'https://112.is/en/samtal-vid-1-1-2', checked } },
    lines: [
      {
        name: 'Red Cross Helpline 1717',
        action: 'Call 1717 (free, 24 hours)',
        href: 'tel:1717',
        hours: '24 hours, every day',
        languages: ['Icelandic'],
        source: {
          url: 'https://www.raudikrossinn.is/um-okkur/frettir-og-utgefid-efni/frettayfirlit/almennar-frettir/felagsmalaraduneytid-stydur-vid-1717',
          checked,
        },
      },
    ],
  },
  {
    code: 'IT',
    name: 'Italy',
    emergency: { number: '112', source: EU_112 },
    lines: [
      {
        // Listening is free; the call itself is charged by the caller's plan (per the source).
        name: 'Telefono Amico Italia',
        action: 'Call 02 2327 2327 (10:00 to midnight)',
        href: 'tel:0223272327',
        hours: 'Every day, 10:00 to midnight',
        languages: ['Italian'],
        source: {
          url: 'https://www.ilgiorno.it/monza-brianza/cronaca/non-solo-fragilita-piu-disturbi-psichiatrici-7153c156',
          checked,
        },
      },
    ],
  },
  {
    code: 'JP',
    name: 'Japan',
    emergency: {
      number: '119',
      source: { url: 'https://www.city.odate.lg.jp/city/foreign-language/english/emergency-call', checked },
    },
    lines: [],
  },
  {
    code: 'KE',
    name: 'Kenya',
    emergency: {
      number: '999 or 112',
      source: {
        url: 'https://www.the-star.co.ke/news/2022-08-07-police-announce-toll-free-emergency-contacts-ahead-of-polls',
        checked,
      },
    },
    lines: [],
  },
  {
    code: 'KR',
    name: 'South Korea',
    emergency: {
      number: '119',
      source: { url: 'https://citiesinsider.com/country/south-korea/CountryWide/emergency-contact-numbers', checked },
    },
    lines: [],
  },
  { code: 'LT', name: 'Lithuania', emergency: { number: '112', source: EU_112 }, lines: [] },
  { code: 'LU', name: 'Luxembourg', emergency: { number: '112', source: EU_112 }, lines: [] },
  { code: 'LV', name: 'Latvia', emergency: { number: '112', source: EU_112 }, lines: [] },
  {
    code: 'MA',
    name: 'Morocco',
    emergency: {
      number: '15 or 19',
      source: { url: 'https://www.challenge.ma/maroc-ces-numeros-quil-faut-avoir-en-cas-durgence-243599/', checked },
    },
    lines: [],
  },
  { code: 'MT', name: 'Malta', emergency: { number: '112', source: EU_112 }, lines: [] },
  {
    code: 'MX',
    name: 'Mexico',
    emergency: {
      number: '911',
      source: {
        url: 'https://www.gob.mx/policiafederal/articulos/088-911-responder-ante-cualquier-llamado?idiom=es',
        checked,
      },
    },
    lines: [],
  },
  {
    code: 'MY',
    name: 'Malaysia',
    emergency: {
      number: '999',
      source: {
        url: 'https://www.thestar.com.my/news/nation/2025/11/18/ng-mers-999-system-operating-normally-after-isolated-incident',
        checked,
      },
    },
    lines: [],
  },
  {
    code: 'NG',
    name: 'Nigeria',
    emergency: {
      number: '112',
      source: { url: 'https://technologytimes.ng/dial-122-how-nigerias-three-digit-emergency-number-works/', checked },
    },
    lines: [],
  },
  {
    code: 'NL',
    name: 'Netherlands',
    emergency: { number: '112', source: EU_112 },
    lines: [
      {
        name: '113 Zelfmoordpreventie',
        action: 'Call 113 (free, 24 hours)',
        href: 'tel:113',
        hours: '24 hours, every day',
        languages: ['Dutch'],
        source: { url: 'https://www.113.nl/schoolopdracht', checked },
      },
    ],
  },
  {
    code: 'NO',
    name: 'Norway',
    emergency: { number: '113', source: { url: 'https://www.helsenorge.no/nn/forstehjelp/ring-113/', checked } },
    lines: [
      {
        name: 'Mental Helse Hjelpetelefonen',
        action: 'Call 116 123 (free, 24 hours)',
        href: 'tel:116123',
        hours: '24 hours, every day',
        languages: ['Norwegian'],
        source: {
          url: 'https://radio3bodo.no/nyheter/aktuelt/jeg-kan-forsta-det-men-jeg-kan-aldri-godta-det-108712/',
          checked,
        },
      },
    ],
  },
  {
    code: 'NZ',
    name: 'New Zealand',
    emergency: {
      number: '111',
      source: {
        url: 'https://www.govt.nz/browse/crime-and-justice/crimes-and-emergencies/111-emergency-service/',
        checked,
      },
    },
    lines: [
      {
        name: '1737 Need to talk?',
        action: 'Call or text 1737 (free, 24 hours)',
        href: 'tel:1737',
        hours: '24 hours, every day',
        languages: ['English'],
        source: {
          url: 'https://www.health.govt.nz/news-media/news-items/phone-counselling-service-busy-following-christchurch-tragedy',
          checked,
        },
      },
    ],
  },
  {
    code: 'PH',
    name: 'Philippines',
    emergency: { number: '911', source: { url: 'https://pageone.ph/?p=295372', checked } },
    lines: [
      {
        name: 'NCMH Crisis Hotline',
        action: 'Call 0917 899 8727 (24 hours)',
        href: 'tel:09178998727',
        hours: '24 hours, every day',
        source: { url: 'https://doh.gov.ph/press-release/launch-of-the-ncmh-crisis-hotline/', checked },
      },
    ],
  },
  {
    code: 'PK',
    name: 'Pakistan',
    emergency: {
      number: '1122',
      source: {
        url: 'https://www.nation.com.pk/22-Jan-2024/rescue-1122-working-hard-to-protect-lives-properties-of-citizens-deo',
        checked,
      },
    },
    lines: [],
  },
  {
    code: 'PL',
    name: 'Poland',
    emergency: { number: '112', source: EU_112 },
    lines: [
      {
        name: 'Centrum Wsparcia dla Osób w Stanie Kryzysu Psychicznego',
        action: 'Call 800 70 2222 (24 hours)',
        href: 'tel:800702222',
        hours: '24 hours, every day',
        languages: ['Polish'],
        source: { url: 'https://zdrowie.pap.pl/psyche/na-kryzys-telefon-800-70-2222', checked },
      },
    ],
  },
  {
    code: 'PT',
    name: 'Portugal',
    emergency: { number: '112', source: EU_112 },
    lines: [
      {
        name: 'Linha Nacional de Prevenção do Suicídio',
        action: 'Call 1411 (24 hours)',
        href: 'tel:1411',
        hours: '24 hours, every day',
        languages: ['Portuguese'],
        source: {
          url: 'https://24noticias.sapo.pt/atualidade/artigos/nova-linha-nacional-para-prevencao-do-suicidio-entra-em-funcionamento-como-funciona',
          checked,
        },
      },
    ],
  },
  { code: 'RO', name: 'Romania', emergency: { number: '112', source: EU_112 }, lines: [] },
  {
    code: 'RS',
    name: 'Serbia',
    emergency: {
      number: '194',
      source: {
        url: 'https://kurir.rs/vesti/drustvo/233230/od-ponedeljka-izmene-brojeva-telefona-hitnih-sluzbi',
        checked,
      },
    },
    lines: [],
  },
  {
    code: 'SA',
    name: 'Saudi Arabia',
    emergency: {
      number: '911 or 997',
      source: {
        url: 'https://expatica.com/sa/healthcare/healthcare-basics/emergency-numbers-and-services-in-saudi-arabia-70990',
        checked,
      },
    },
    lines: [],
  },
  {
    code: 'SE',
    name: 'Sweden',
    emergency: { number: '112', source: EU_112 },
    lines: [
      {
        name: 'Mind Självmordslinjen',
        action: 'Call 90101 (24 hours)',
        href: 'tel:90101',
        hours: '24 hours, every day',
        languages: ['Swedish'],
        source: { url: 'https://mind.se/sjalvmordslinjen/fragor-och-svar-om-sjalvmordslinjen/', checked },
      },
    ],
  },
  {
    code: 'SG',
    name: 'Singapore',
    emergency: {
      number: '995',
      source: {
        url: 'https://www.scdf.gov.sg/home/about-us/information-on-ems/scdf-emergency-medical-services',
        checked,
      },
    },
    lines: [
      {
        name: 'Samaritans of Singapore (SOS)',
        action: 'Call 1767 (24 hours)',
        href: 'tel:1767',
        hours: '24 hours, every day',
        languages: ['English'],
        source: { url: 'https://mothership.sg/2022/09/sos-24h-whatsapp-service', checked },
      },
    ],
  },
  { code: 'SI', name: 'Slovenia', emergency: { number: '112', source: EU_112 }, lines: [] },
  {
    code: 'SK',
    name: 'Slovakia',
    emergency: { number: '112', source: EU_112 },
    lines: [
      {
        name: 'Linka dôvery Nezábudka',
        action: 'Call 0800 800 566 (free)',
        href: 'tel:0800800566',
        languages: ['Slovak'],
        source: {
          url: 'https://www.24hod.sk/ludia-s-problemami-sa-mozu-obratit-aj-na-linku-dovery-nezabudka-cl712745.html',
          checked,
        },
      },
    ],
  },
  {
    code: 'TH',
    name: 'Thailand',
    emergency: {
      number: '1669',
      source: { url: 'https://www.konkai.health/articles/how-to-call-an-ambulance-in-thailand', checked },
    },
    lines: [],
  },
  {
    code: 'TR',
    name: 'Türkiye',
    emergency: {
      number: '112',
      source: { url: 'https://sinopism.saglik.gov.tr/TR-226526/acil-durumda-sadece-112.html', checked },
    },
    lines: [],
  },
  {
    code: 'TW',
    name: 'Taiwan',
    emergency: { number: '119', source: { url: 'https://english.taichung.gov.tw/725869/post', checked } },
    lines: [],
  },
  {
    code: 'UA',
    name: 'Ukraine',
    emergency: {
      number: '103 or 112',
      source: {
        url: 'https://mvs.gov.ua/en/news/jedinii-nomer-ekstrenoyi-dopomogi-112-nase-zavdannia-prisvidsiti-robotu-ekstrenix-sluzb-leonid-timcenko',
        checked,
      },
    },
    lines: [],
  },
  {
    code: 'US',
    name: 'United States',
    emergency: { number: '911', source: { url: 'https://www.911.gov/', checked } },
    lines: [
      {
        name: '988 Suicide & Crisis Lifeline',
        action: 'Call or text 988',
        href: 'tel:988',
        hours: '24 hours, every day',
        languages: ['English', 'Spanish'],
        source: { url: 'https://988lifeline.org/', checked },
      },
    ],
  },
  {
    code: 'VN',
    name: 'Vietnam',
    emergency: { number: '115', source: { url: 'https://kienthucykhoa.edu.vn/113-la-so-dien-thoai-gi/', checked } },
    lines: [],
  },
  {
    code: 'ZA',
    name: 'South Africa',
    emergency: {
      number: '112 or 10177',
      source: { url: 'https://gauteng.news/2024/10/16/sa-emergency-numbers-kids-should-know/', checked },
    },
    lines: [
      {
        name: 'SADAG (South African Depression and Anxiety Group)',
        action: 'Call 0800 456 789',
        href: 'tel:0800456789',
        languages: ['English'],
        source: {
          url: 'https://www.sabcnews.com/sabcnews/sadag-encourages-the-mentally-fatigued-to-reach-out-amid-world-suicide-prevention-day/',
          checked,
        },
      },
    ],
  },
];
