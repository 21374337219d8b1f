/**
 * mega.travel: one large public account, big enough that collecting its lists takes many pages
 * (5,400 followers, 420 posts). It is generated after the rest of the data set from its own random
 * streams and adds only new accounts (its followers), so every other account, post and list is the
 * same with or without it. Its followers follow only it; it follows 180 of them.
 */

import { UsageError } from '../cli-error'
import { buildMedia, captionFor, type MediaDraft, THREE_YEARS } from './dataset-media'
import { CITIES } from './dataset-places'
import { FIRST_NAMES, LAST_NAMES, NOUNS } from './dataset-text'
import type { DemoMedia, DemoUser } from './dataset-types'
import { DATA_AS_OF, DEMO_PRESETS } from './presets'
import { deriveSeed, Random } from './prng'
import { mediaPkAt } from './shortcode'

/** How many accounts follow mega.travel, how many posts it has, how many accounts it follows. */
export const MEGA_FOLLOWER_COUNT = 5400
/** The largest follower count `SMKIT_SIM_MEGA_FOLLOWERS` may ask for. */
const MAX_MEGA_FOLLOWERS = 200_000

/**
 * mega.travel's follower count: `SMKIT_SIM_MEGA_FOLLOWERS` (1-200,000) when the simulator's
 * process sets it, for load tests that need a longer list (the bench's 50,000-record job); else
 * 5,400. Any other count changes mega.travel's own followers and posts, nothing else. A value that
 * is no whole number in that range is a UsageError (exit 2), as a bad `SMKIT_SPEED` is.
 */
export function megaFollowerCount(env: Record<string, string | undefined> = process.env): number {
	const text = env.SMKIT_SIM_MEGA_FOLLOWERS?.trim()
	if (!text) return MEGA_FOLLOWER_COUNT
	const asked = /^\d{1,6}$/.test(text) ? Number(text) : Number.NaN
	if (!(asked >= 1 && asked <= MAX_MEGA_FOLLOWERS))
		throw new UsageError(`SMKIT_SIM_MEGA_FOLLOWERS must be a whole number from 1 to 200000, got '${text}'`)
	return asked
}
export const MEGA_POST_COUNT = 420
const MEGA_FOLLOWING_COUNT = 180

/** What mega.travel adds to a data set. */
export interface MegaAccount {
	user: DemoUser
	/** The new accounts that follow it, in pk order. */
	followerAccounts: DemoUser[]
	/** Its followers, newest first, and the accounts it follows. */
	followers: string[]
	following: string[]
	/** Its posts, newest first. */
	media: DemoMedia[]
}

const slug = (text: string): string =>
	text
		.normalize('NFD')
		.replace(/\p{M}/gu, '')
		.toLowerCase()
		.replace(/[^a-z]/g, '')

function account(
	pk: string,
	username: string,
	fullName: string,
	isPrivate: boolean,
	city: string | null
): DemoUser {
	return {
		pk,
		username,
		fullName,
		biography: '',
		externalUrl: null,
		bioLinks: [],
		isPrivate,
		isVerified: false,
		isBusiness: false,
		category: null,
		publicEmail: null,
		publicPhone: null,
		city,
		addressStreet: null,
		pronouns: [],
		fbid: `1784140${pk}`,
		isThreadsUser: false
	}
}

/** Builds mega.travel around the already generated `users` and `media` (none of which it changes). */
export function generateMegaAccount(
	seed: number,
	users: readonly DemoUser[],
	media: readonly DemoMedia[],
	followerCount: number = megaFollowerCount()
): MegaAccount {
	const random = new Random(deriveSeed(seed, 'mega'))
	const takenNames = new Set(users.map((user) => user.username))
	const takenPks = new Set(users.map((user) => user.pk))
	let megaPk = Number(DEMO_PRESETS.mega.pk)
	while (takenPks.has(String(megaPk))) megaPk++
	const user: DemoUser = {
		...account(String(megaPk), DEMO_PRESETS.mega.username, 'Mega Travel', false, 'Lisbon, Portugal'),
		biography: 'Travel stories from 120 countries 🌍 Tag #megatravel to be featured',
		externalUrl: 'https://mega-travel.example.com',
		isVerified: true,
		isBusiness: true,
		category: 'Travel Company',
		publicEmail: 'hello@mega-travel.example.com'
	}
	const followerAccounts: DemoUser[] = []
	for (let index = 0; index < followerCount; index++) {
		const first = random.pick(FIRST_NAMES)
		const last = random.pick(LAST_NAMES)
		let username = ''
		while (username === '' || takenNames.has(username)) {
			username = random.chance(0.5)
				? `${slug(first)}.${slug(last)}${random.int(1, 9999)}`
				: `${slug(first)}_${random.pick(NOUNS)}${random.int(1, 999)}`
		}
		takenNames.add(username)
		const pk = String(80_000_000_000 + index)
		followerAccounts.push(
			account(pk, username.slice(0, 30), `${first} ${last}`, random.chance(0.15), random.pick(CITIES))
		)
	}
	const followers = random.shuffle(followerAccounts.map((follower) => follower.pk))
	const following = random.sample(followers, MEGA_FOLLOWING_COUNT)
	const taken = new Set<bigint>(media.map((post) => post.pk))
	const drafts: MediaDraft[] = []
	for (let index = 0; index < MEGA_POST_COUNT; index++) {
		const takenAtMs = (DATA_AS_OF - random.int(3600, THREE_YEARS)) * 1000 + random.int(0, 999)
		let pk = mediaPkAt(takenAtMs, random.int(0, 0x7fffff))
		while (taken.has(pk)) pk += 1n
		taken.add(pk)
		const roll = random.next()
		drafts.push({
			pk,
			owner: user,
			mediaType: roll < 0.55 ? 1 : roll < 0.85 ? 8 : 2,
			caption: `${captionFor(random, users)} #megatravel`.trim(),
			placePk: null,
			fixed: false
		})
	}
	drafts.sort((left, right) => (left.pk < right.pk ? 1 : left.pk > right.pk ? -1 : 0))
	const posts = drafts.map((draft) => buildMedia(random, draft, users, followers.length))
	return { user, followerAccounts, followers, following, media: posts }
}
