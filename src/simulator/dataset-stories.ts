/** Generates stories (always active: their age is relative to the request time) and highlights. */
import { PLACES } from './dataset-places'
import { HASHTAGS } from './dataset-text'
import type { DemoHighlight, DemoMedia, DemoStory, DemoUser } from './dataset-types'
import { DATA_AS_OF, DEMO_PRESETS, XSS_PAYLOADS } from './presets'
import { deriveSeed, Random } from './prng'
import { mediaPkAt } from './shortcode'

const DAY = 86400

/** Active stories by owner pk, oldest first (Instagram's order inside a reel). */
export function generateStories(seed: number, users: readonly DemoUser[]): Map<string, DemoStory[]> {
	const random = new Random(deriveSeed(seed, 'stories'))
	const { viewer, luna, privateAccount, xss } = DEMO_PRESETS
	const fixedCounts: Record<string, number> = {
		[viewer.pk]: 2,
		[luna.pk]: 4,
		[privateAccount.pk]: 2,
		[xss.pk]: 1
	}
	const stories = new Map<string, DemoStory[]>()
	for (const user of users) {
		const count = fixedCounts[user.pk] ?? (random.chance(0.25) ? random.int(1, 5) : 0)
		if (count === 0) continue
		const items: DemoStory[] = []
		for (let index = 0; index < count; index++) {
			const ageSeconds = random.int(300, DAY - 3600)
			const mediaType = random.chance(0.35) ? 2 : 1
			items.push({
				pk: mediaPkAt((DATA_AS_OF - ageSeconds) * 1000, random.int(0, 0x7fffff)),
				ownerPk: user.pk,
				mediaType,
				ageSeconds,
				videoDuration: mediaType === 2 ? random.int(30, 150) / 10 : null,
				mentionPks: random.chance(0.15) ? [random.pick(users).pk] : [],
				hashtag: random.chance(0.15) ? random.pick(HASHTAGS) : null,
				locationPk: random.chance(0.15) ? random.pick(PLACES).pk : null,
				linkUrl: random.chance(0.08)
					? `https://${user.username.replace(/[._]/g, '')}.example.com/story`
					: null,
				pollQuestion: random.chance(0.06) ? 'Coffee or tea?' : null,
				viewerCount: random.int(5, 400)
			})
		}
		items.sort((left, right) => right.ageSeconds - left.ageSeconds)
		stories.set(user.pk, items)
	}
	// luna.explorer's reel shows every sticker kind the client reads.
	const lunaStories = stories.get(luna.pk) as DemoStory[]
	Object.assign(lunaStories[0] as DemoStory, { mentionPks: [viewer.pk], hashtag: 'travel' })
	Object.assign(lunaStories[1] as DemoStory, { locationPk: '6889842', pollQuestion: 'Sunrise or sunset?' })
	Object.assign(lunaStories[2] as DemoStory, { linkUrl: 'https://luna-explorer.example.com/guides/paris' })
	return stories
}

const LUNA_HIGHLIGHTS = ['Paris', 'Lisbon', 'Iceland', 'Food', 'Gear', 'Q&A']
const TITLES = [
	'Travel',
	'Friends',
	'Food',
	'Pets',
	'Summer',
	'Home',
	'Work',
	'Music',
	'2025',
	'Family',
	'✨'
]

/** Story highlights by owner pk. `coverKey` names a post whose image serves as the cover. */
export function generateHighlights(
	seed: number,
	users: readonly DemoUser[],
	mediaByOwner: ReadonlyMap<string, readonly DemoMedia[]>
): Map<string, DemoHighlight[]> {
	const random = new Random(deriveSeed(seed, 'highlights'))
	const { viewer, luna, xss } = DEMO_PRESETS
	const highlights = new Map<string, DemoHighlight[]>()
	for (const user of users) {
		const titles =
			user.pk === luna.pk
				? LUNA_HIGHLIGHTS
				: user.pk === viewer.pk
					? ['Demo', 'Trips']
					: user.pk === xss.pk
						? [XSS_PAYLOADS.script]
						: random.chance(0.35)
							? random.sample(TITLES, random.int(1, 6))
							: []
		if (titles.length === 0) continue
		const posts = mediaByOwner.get(user.pk) ?? []
		highlights.set(
			user.pk,
			titles.map((title, index) => {
				const createdAt = DATA_AS_OF - random.int(30, 900) * DAY
				return {
					id: `highlight:17${random.digits(15)}`,
					ownerPk: user.pk,
					title,
					mediaCount: random.int(1, 40),
					createdAt,
					updatedAt: createdAt + random.int(0, 20) * DAY,
					isPinned: index === 0 && random.chance(0.3),
					coverKey: posts.length > 0 ? (random.pick(posts).code as string) : `cover-${user.pk}-${index}`
				}
			})
		)
	}
	return highlights
}
