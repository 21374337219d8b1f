/** Generates the accounts of the demo data set: the four fixed ones, then hundreds of seeded others. */
import { CITIES } from './dataset-places'
import {
	ADJECTIVES,
	BIO_FRAGMENTS,
	CATEGORIES,
	FIRST_NAMES,
	HASHTAGS,
	LAST_NAMES,
	NOUNS,
	SCRIPT_NAMES
} from './dataset-text'
import type { DemoUser } from './dataset-types'
import { DEMO_PRESETS, XSS_PAYLOADS } from './presets'
import { deriveSeed, Random } from './prng'

/** How many accounts a data set has, the fixed four included. */
export const USER_COUNT = 400

const blankUser = (pk: string, username: string, fullName: string): DemoUser => ({
	pk,
	username,
	fullName,
	biography: '',
	externalUrl: null,
	bioLinks: [],
	isPrivate: false,
	isVerified: false,
	isBusiness: false,
	category: null,
	publicEmail: null,
	publicPhone: null,
	city: null,
	addressStreet: null,
	pronouns: [],
	fbid: `1784140${pk}`,
	isThreadsUser: false
})

/** The four accounts of the shared contract, identical for every seed. */
function fixedUsers(): DemoUser[] {
	const { viewer, luna, privateAccount, xss } = DEMO_PRESETS
	return [
		{
			...blankUser(viewer.pk, viewer.username, 'SMKit Demo'),
			biography: 'Demo account of smkit 🧪 Everything here is simulated.',
			isPrivate: true,
			city: 'Paris, France'
		},
		{
			...blankUser(luna.pk, luna.username, 'Luna Explorer'),
			biography:
				'Chasing light around the world 🌍✨\nCollabs: luna.explorer@example.com · +1 (555) 010-2024\n' +
				'Travel diary with @smkit_demo #travel\nhttps://luna-explorer.example.com',
			externalUrl: 'https://luna-explorer.example.com',
			bioLinks: [
				{ title: 'Travel guides', url: 'https://luna-explorer.example.com/guides', linkType: 'external' },
				{ title: 'Presets shop', url: 'https://shop.luna-explorer.example.com', linkType: 'external' }
			],
			isVerified: true,
			isBusiness: true,
			category: 'Photographer',
			publicEmail: 'luna.explorer@example.com',
			publicPhone: { countryCode: '1', number: '5550102024' },
			city: 'Lisbon, Portugal',
			addressStreet: 'Rua da Rosa 12',
			pronouns: ['she', 'her'],
			isThreadsUser: true
		},
		{
			...blankUser(privateAccount.pk, privateAccount.username, 'Pat Private'),
			biography: 'Friends only 🔒',
			isPrivate: true,
			city: 'Berlin, Germany'
		},
		{
			...blankUser(xss.pk, xss.username, XSS_PAYLOADS.imgOnerror),
			biography: `${XSS_PAYLOADS.script} ${XSS_PAYLOADS.svgOnload} ${XSS_PAYLOADS.javascriptUrl} @luna.explorer #coffee`,
			externalUrl: XSS_PAYLOADS.javascriptUrl,
			bioLinks: [{ title: XSS_PAYLOADS.imgOnerror, url: XSS_PAYLOADS.javascriptUrl, linkType: 'external' }],
			category: null
		}
	]
}

/** Lower-case ASCII letters only, for usernames built from names with accents. */
const slug = (text: string): string =>
	text
		.normalize('NFD')
		.replace(/\p{M}/gu, '')
		.toLowerCase()
		.replace(/[^a-z]/g, '')

function pickUsername(random: Random, first: string, last: string, taken: Set<string>): string {
	for (;;) {
		const pattern = random.int(0, 5)
		const candidate = [
			`${slug(first)}.${slug(last)}`,
			`${slug(first)}_${random.pick(NOUNS)}`,
			`${random.pick(ADJECTIVES)}${random.pick(NOUNS)}${random.int(1, 99)}`,
			`${slug(first)}${slug(last)}${random.int(1, 999)}`,
			`the.${random.pick(ADJECTIVES)}.${random.pick(NOUNS)}`,
			`${random.pick(NOUNS)}.by.${slug(first)}`
		][pattern] as string
		const username = candidate.replace(/^[._]+|[._]+$/g, '').slice(0, 30)
		if (username.length >= 3 && !taken.has(username)) {
			taken.add(username)
			return username
		}
	}
}

/** A bio of zero to three fragments, sometimes with a hashtag or a mention of an earlier generated account. */
function biographyFor(random: Random, city: string, users: readonly DemoUser[]): string {
	const fragments = random
		.sample(BIO_FRAGMENTS, random.int(0, 3))
		.map((fragment) => fragment.replace('{city}', city.split(',')[0] as string))
	if (random.chance(0.2)) fragments.push(`#${random.pick(HASHTAGS)}`)
	if (random.chance(0.12) && users.length > 4)
		fragments.push(`📸 @${users[random.int(4, users.length - 1)]?.username}`)
	return fragments.join(random.chance(0.5) ? '\n' : ' · ')
}

/** Every account of a data set: the fixed four first, then `USER_COUNT - 4` seeded ones. */
export function generateUsers(seed: number): DemoUser[] {
	const random = new Random(deriveSeed(seed, 'users'))
	const users = fixedUsers()
	const takenNames = new Set(users.map((user) => user.username))
	const takenPks = new Set(users.map((user) => user.pk))
	while (users.length < USER_COUNT) {
		const first = random.pick(FIRST_NAMES)
		const last = random.pick(LAST_NAMES)
		const username = pickUsername(random, first, last, takenNames)
		let pk = String(random.int(10_000_000, 79_999_999_999))
		while (takenPks.has(pk)) pk = String(random.int(10_000_000, 79_999_999_999))
		takenPks.add(pk)
		const isBusiness = random.chance(0.15)
		const fullName = isBusiness
			? `${random.pick(ADJECTIVES)} ${random.pick(NOUNS)}`.replace(/\b\w/g, (letter) => letter.toUpperCase())
			: random.chance(0.06)
				? random.pick(SCRIPT_NAMES)
				: random.chance(0.05)
					? ''
					: `${first} ${last}`
		const city = random.pick(CITIES)
		const domain = `${username.replace(/[._]/g, '')}.example.com`
		users.push({
			...blankUser(pk, username, fullName),
			biography: biographyFor(random, city, users),
			externalUrl: random.chance(0.2) || isBusiness ? `https://${domain}` : null,
			isPrivate: random.chance(0.18),
			isVerified: random.chance(0.04),
			isBusiness,
			category: isBusiness ? random.pick(CATEGORIES) : null,
			publicEmail: isBusiness ? `hello@${domain}` : null,
			publicPhone:
				isBusiness && random.chance(0.5) ? { countryCode: '1', number: `555${random.digits(7)}` } : null,
			city,
			pronouns: random.chance(0.1)
				? random.pick([
						['she', 'her'],
						['he', 'him'],
						['they', 'them']
					])
				: [],
			isThreadsUser: random.chance(0.3)
		})
	}
	return users
}
