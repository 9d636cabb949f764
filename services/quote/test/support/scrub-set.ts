/**
 * The labelled set: notes as people write them, each with the personal details that must not reach the AI provider
 * (names, postal addresses, e-mail addresses, phone numbers, dates of birth, account and card numbers, links), and
 * notes with nothing personal, which must pass unchanged. The scrub's own test (scrub.test.ts) and the AI-request
 * test (ai-provider.int.test.ts, through the whole stack to a local provider) both measure it.
 */
export const personalNotes: Array<[notes: string, details: string[]]> = [
  ['write to ada.l@example.co.uk today', ['ada.l@example.co.uk']],
  ['my work address is sam_o+haven@mail.example.org', ['sam_o+haven@mail.example.org']],
  ['call me on +44 7700 900123 or (555) 123-4567', ['7700 900123', '123-4567']],
  ['text 07700900456 if late', ['07700900456']],
  ['US number 212.555.0199, ask for the night desk', ['212.555.0199']],
  ['see https://example.com/me and www.example.org/page', ['example.com/me', 'example.org/page']],
  ['id 3f2b8c1e-1d2a-4c5b-9e8f-0a1b2c3d4e5f', ['3f2b8c1e-1d2a-4c5b-9e8f-0a1b2c3d4e5f']],
  ['my name is Grace and this is Hopper', ['Grace', 'Hopper']],
  ["people call me Bex, my name's Rebecca", ['Bex', 'Rebecca']],
  ['paid the rent from card 4242 4242 4242 4242 again', ['4242 4242 4242 4242']],
  ['card 5555-5555-5555-4444 was declined, so stressed', ['5555-5555-5555-4444']],
  ['sort code 12-34-56 account 31926819', ['12-34-56', '31926819']],
  ['my IBAN is GB82 WEST 1234 5698 7654 32 for the refund', ['GB82 WEST 1234 5698 7654 32', 'WEST']],
  ['NI number QQ 12 34 56 C on the form', ['QQ 12 34 56 C']],
  ['SSN 078-05-1120 asked at the clinic', ['078-05-1120']],
  ['born on 14 March 1990, so turning 36', ['14 March 1990']],
  ['my birthday is 3rd of May 1985 and nobody remembered', ['3rd of May 1985']],
  ['DOB: 02/11/1979 on the letter', ['02/11/1979']],
  ['date of birth 1988-07-21 typed wrong twice', ['1988-07-21']],
  ['the hospital letter says July 4th, 1992 for my birth date', ['July 4th, 1992']],
  ['appointment form had 5.6.91 as my birthday', ['5.6.91']],
  ['I live at 221B Baker Street, London NW1 6XE. Noisy neighbours.', ['221B Baker Street', 'London', 'NW1 6XE']],
  ['moved to 12 Elm Grove last week, boxes everywhere', ['12 Elm Grove']],
  ['my address is Flat 3, 45 Station Road, Leeds', ['45 Station Road', 'Leeds', 'Flat 3']],
  ['the office is at 350 Fifth Avenue and I hate the commute', ['350 Fifth Avenue']],
  ['send it to Springfield, IL 62704 please', ['IL 62704']],
  ['postcode SW1A 1AA came up on the parcel', ['SW1A 1AA']],
  ['I live on Maple Drive now, it is quiet', ['Maple Drive']],
];

export const harmlessNotes = [
  'slept 6 hours, 3 coffees',
  'walked 10000 steps and felt a bit better',
  'ran 5 km in 31 minutes',
  'call me on Monday if the rota changes',
  'this is hard, but I got through the morning',
  'exam on 12 March, revising every evening',
  'back in 2019 things were easier',
  'three more days until the weekend',
  'took 2 paracetamol for the headache',
  'room 101 at work is freezing',
  'watched episode 4 of season 2 with my sister',
  'it is 9:30 and I am still in bed',
  'walked down the road to the shop and back',
  'we live on hope and coffee these days',
  'my score was 7/10 today',
];
