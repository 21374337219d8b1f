/**
 * The viewer's own data: liked and saved posts, saved collections, activity notifications, direct
 * threads, login sessions and account settings.
 */
import type { SocialGraph } from './dataset-graph'
import { COMMENT_TEXTS, DEVICES, MESSAGE_TEXTS } from './dataset-text'
import type {
	DemoAccount,
	DemoCollection,
	DemoLoginSession,
	DemoMedia,
	DemoMessage,
	DemoNotification,
	DemoThread,
	DemoUser
} from './dataset-types'
import { DATA_AS_OF, DEMO_PRESETS, XSS_PAYLOADS } from './presets'
import { deriveSeed, Random } from './prng'

const DAY = 86400

/** Everything personal to the logged-in demo account. */
export interface ViewerData {
	/** Media pks the viewer liked, most recently liked first. */
	likes: string[]
	collections: DemoCollection[]
	notifications: DemoNotification[]
	threads: DemoThread[]
	loginSessions: DemoLoginSession[]
	account: DemoAccount
}

/** Builds the viewer's data from the posts they can see. */
export function generateViewerData(
	seed: number,
	users: readonly DemoUser[],
	graph: SocialGraph,
	media: readonly DemoMedia[]
): ViewerData {
	const random = new Random(deriveSeed(seed, 'viewer'))
	const { viewer } = DEMO_PRESETS
	const [likedPreset, unlikedPreset] = [DEMO_PRESETS.media[1].pk, DEMO_PRESETS.media[0].pk]
	const following = new Set(graph.following.get(viewer.pk))
	const isPrivate = new Map(users.map((user) => [user.pk, user.isPrivate]))
	const visible = media.filter(
		(post) => post.ownerPk !== viewer.pk && (!isPrivate.get(post.ownerPk) || following.has(post.ownerPk))
	)
	const likedSet = new Set(random.sample(visible, 150).map((post) => String(post.pk)))
	likedSet.add(likedPreset)
	likedSet.delete(unlikedPreset)
	const likes = visible.map((post) => String(post.pk)).filter((pk) => likedSet.has(pk))

	const saved = random.sample(visible, 60).map((post) => String(post.pk))
	const clips = visible.filter((post) => post.productType === 'clips').slice(0, 3)
	const collections: DemoCollection[] = [
		{ id: '17900000000000001', name: 'All posts', type: 'ALL_MEDIA_AUTO_COLLECTION', mediaPks: saved },
		{ id: `179${random.digits(14)}`, name: 'Travel ideas', type: 'MEDIA', mediaPks: saved.slice(0, 20) },
		{ id: `179${random.digits(14)}`, name: 'Coffee spots', type: 'MEDIA', mediaPks: saved.slice(20, 30) },
		{
			id: `179${random.digits(14)}`,
			name: 'Audio',
			type: 'AUDIO_AUTO_COLLECTION',
			mediaPks: clips.map((post) => String(post.pk))
		}
	]

	const ownPosts = media.filter((post) => post.ownerPk === viewer.pk)
	const followers = graph.followers.get(viewer.pk) as string[]
	const notifications: DemoNotification[] = []
	let timestamp = DATA_AS_OF - random.int(60, 3600)
	for (let index = 0; index < 48; index++) {
		const roll = random.next()
		const kind = roll < 0.3 ? 'user_followed' : roll < 0.7 ? 'like' : roll < 0.85 ? 'comment' : 'comment_like'
		notifications.push({
			pk: `${random.digits(19)}`,
			kind,
			userPk: random.pick(followers),
			mediaPk: kind === 'user_followed' ? null : String(random.pick(ownPosts).pk),
			commentText: kind === 'comment' || kind === 'comment_like' ? random.pick(COMMENT_TEXTS) : null,
			timestamp,
			isNew: index < 6
		})
		timestamp -= random.int(600, DAY)
	}

	return {
		likes,
		collections,
		notifications,
		threads: generateThreads(random, users, graph),
		loginSessions: DEVICES.map((device, index) => ({
			id: `${random.digits(18)}`,
			device,
			location: ['Paris, France', 'Lyon, France', 'Lisbon, Portugal', 'Berlin, Germany'][index] as string,
			latitude: [48.8566, 45.764, 38.7223, 52.52][index] as number,
			longitude: [2.3522, 4.8357, -9.1393, 13.405][index] as number,
			timestamp: DATA_AS_OF - index * random.int(DAY, 9 * DAY),
			isCurrent: index === 0
		})),
		account: {
			email: 'smkit.demo@example.com',
			phoneNumber: '+1 555 010 0001',
			birthday: '1995-04-12',
			gender: 3,
			dateJoined: 1546300800 + random.int(0, 300) * DAY,
			country: 'FR',
			twoFactorEnabled: true,
			hideLikeCounts: false,
			showActivityStatus: true,
			allowStoryReshare: true,
			allowCommentsFrom: 'everyone',
			allowTagsFrom: 'people_you_follow',
			allowMentionsFrom: 'everyone',
			messageRequestsFrom: 'followers'
		}
	}
}

function generateThreads(random: Random, users: readonly DemoUser[], graph: SocialGraph): DemoThread[] {
	const { viewer, luna, xss } = DEMO_PRESETS
	const contacts = [
		...new Set([...(graph.following.get(viewer.pk) ?? []), ...(graph.followers.get(viewer.pk) ?? [])])
	]
	const partners = [
		luna.pk,
		xss.pk,
		...random.sample(
			contacts.filter((pk) => pk !== luna.pk && pk !== xss.pk),
			28
		)
	]
	const threads: DemoThread[] = partners.map((pk) => ({
		threadId: `340282366841710300949128${random.digits(15)}`,
		title: users.find((user) => user.pk === pk)?.username ?? '',
		isGroup: false,
		muted: random.chance(0.1),
		userPks: [pk],
		messages: []
	}))
	for (const title of [
		'Weekend trip 🏕️',
		'Coffee club',
		'Photo walk crew',
		'Family',
		'Book club 📚',
		'Climbing'
	]) {
		threads.push({
			threadId: `340282366841710300949128${random.digits(15)}`,
			title,
			isGroup: true,
			muted: random.chance(0.3),
			userPks: random.sample(contacts, random.int(2, 4)),
			messages: []
		})
	}
	let lastActivity = DATA_AS_OF - random.int(60, 7200)
	for (const thread of random.shuffle(threads)) {
		const count = random.int(3, 20)
		const messages: DemoMessage[] = []
		let time = lastActivity
		for (let index = 0; index < count; index++) {
			const userPk = random.chance(0.45) ? viewer.pk : random.pick(thread.userPks)
			messages.unshift({
				itemId: `3${random.digits(37)}`,
				userPk,
				timestampMicros: time * 1_000_000 + random.int(0, 999_999),
				text: random.pick(MESSAGE_TEXTS)
			})
			time -= random.int(30, 6 * 3600)
		}
		if (thread.userPks[0] === xss.pk)
			Object.assign(messages.at(-2) as DemoMessage, { userPk: xss.pk, text: XSS_PAYLOADS.imgOnerror })
		thread.messages = messages
		lastActivity -= random.int(600, 4 * DAY)
	}
	return threads
}
