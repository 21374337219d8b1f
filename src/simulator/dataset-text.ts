/**
 * Word lists the seeded generator draws from: names, captions, places and messages. Kept as split
 * strings so the lists stay compact and readable.
 */

const words = (text: string): readonly string[] => Object.freeze(text.trim().split(/\s+/))
const phrases = (text: string): readonly string[] => Object.freeze(text.split('|'))

/** Given names, with accents so clients meet real-world text. */
export const FIRST_NAMES =
	words(`Ava Liam Noah Emma Olivia Mateo Sofia Lucas Mia Ethan Amara Kenji Yuki Chloé Zoë
	Léa Björn Søren Aisha Omar Priya Arjun Mei Wei Hana Jonas Elif Mehmet Ana João Camila Diego Nia Kofi Freya Ines
	Tomás Maya Leo Nora Iris Felix Oscar Ruby Theo Luca Elena Sven Aiko Ravi Layla Yusuf Sara Marta Pablo Nina Emil
	Alma Jun Dara`)

/** Family names. */
export const LAST_NAMES =
	words(`Smith García Müller Rossi Dubois Kowalski Nakamura Kim Chen Patel Silva Santos
	Okafor Mensah Johansson Andersen Novak Horvat Yılmaz Ivanova Haddad Cohen Murphy Walsh Bianchi Fernández López
	Nguyen Tanaka Sato Schmidt Weber Laurent Moreau Costa Pereira Khan Ali Brown Taylor Wilson Martin Lee Park Singh
	Das Ortiz Reyes Berg Lund`)

/** Full names in other scripts, for a few accounts. */
export const SCRIPT_NAMES = phrases('李明|佐藤 花子|Ольга Петрова|محمد علي|Δήμητρα Παππά|김민준|שירה לוי')

/** Adjectives for usernames. */
export const ADJECTIVES = words(`wild urban quiet golden salty misty lazy happy little daily slow cosmic sunny
	rainy nordic tiny brave cozy vintage electric midnight coastal`)

/** Nouns for usernames. */
export const NOUNS = words(`wanderer lens kitchen trails coffee pixels roamer studio garden waves peaks bakery
	diaries frames journeys sketches tides forest city notes vinyl bikes plants paws spoon atlas`)

/** Hashtags used in captions; the first three are the demo presets and appear most often. */
export const HASHTAGS =
	words(`sunset travel coffee photography nature foodie streetphotography mountains beach
	architecture goldenhour latte wanderlust cityscape hiking instafood portrait minimalism art design fitness yoga
	dogsofinstagram catsofinstagram bookstagram vinyl plants baking roadtrip ocean snow autumn spring paris tokyo
	lisbon filmphotography blackandwhite nightsky espresso`)

/** Caption openings. */
export const CAPTION_OPENINGS = phrases(
	'Golden hour never gets old|Another day, another adventure|Found this little gem today|Morning rituals|' +
		'Can we go back already?|Lost in the details|Weekend mode: on|Chasing light|This view though|' +
		'Slow mornings are the best mornings|Throwback to this moment|New favourite spot|Colours of the season|' +
		'Just a quiet walk|Sunday reset|Tried something new in the kitchen|The city at night hits different|' +
		'Somewhere between here and there'
)

/** Caption continuations (the first is empty). */
export const CAPTION_MIDDLES = phrases(
	'| ☕| 🌅| ✨| 🌊| 🏔️| 📷| with the best crew| and a very long walk| – more soon|' +
		'. Swipe for the before/after|. Which one is your favourite?| (no filter!)|. Thank you for 1k ❤️'
)

/** Comment texts. */
export const COMMENT_TEXTS = phrases(
	'Stunning! 😍|Wow, where is this?|Love this so much|The colours!!|Take me there 🙏|Incredible shot|🔥🔥🔥|' +
		'This made my day|Goals 😍|How do you edit your photos?|Beautiful ❤️|Need to visit this place|' +
		'Absolutely gorgeous|Saving this for later|Great light here|So cozy ☕|Is this film?|Perfect composition|' +
		'Wish I was there|Amazing as always'
)

/** Reply texts. */
export const REPLY_TEXTS = phrases(
	'Thank you! 🙏|Right?!|Totally agree|Haha yes|Let’s go together next time|It is even better in person|' +
		'Thanks so much ❤️|Shot on my old camera'
)

/** Direct message texts. */
export const MESSAGE_TEXTS = phrases(
	'Hey! How are you?|Loved your last post|Are you coming on Saturday?|Haha that is so true|' +
		'Can you send me the location?|Thanks!|See you soon 👋|That coffee place was amazing|' +
		'Did you see the sunset yesterday?|Let me check and get back to you|Sounds good 👍|What camera do you use?|' +
		'Happy birthday!! 🎉|Miss you!|On my way|lol'
)

/** Account categories of business and creator accounts. */
export const CATEGORIES = phrases(
	'Photographer|Digital creator|Artist|Coffee shop|Travel company|Blogger|Chef|Musician/band|Personal blog|' +
		'Product/service'
)

/** Bio fragments; `{city}` is replaced by the account's city. */
export const BIO_FRAGMENTS = phrases(
	'Coffee first ☕|Photography & travel|Based in {city}|Plant parent 🌿|Dog person 🐶|Sharing my everyday|' +
		'Film + digital|Climber, baker, reader|Slow living|Music lover 🎧|Always planning the next trip ✈️|' +
		'Designer by day|📍 {city}|Runner 🏃'
)

/** Music tracks used by reels: `title|artist`. */
export const TRACKS = phrases(
	'Summer Drive|The Midnight Tapes|Ocean Eyes (Lo-fi)|Cloud Nine|Golden|Harbor Lights|Northern Roads|' +
		'Aurora Field|Café au Lait|Les Matins'
)

/** Devices for login activity. */
export const DEVICES = phrases('Chrome on Mac OS X|Safari on iPhone|Instagram on iPhone 15|Firefox on Linux')
