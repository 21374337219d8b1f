/**
 * Generates the posts of the demo data set (~3000): photos, carousels and reels with captions that carry
 * hashtags and mentions, locations and user tags. Pks follow Instagram's layout (time in the upper bits),
 * so they are 19-digit numbers beyond 2^53 and sort by time; codes are the real shortcode encoding.
 */
import type { SocialGraph } from './dataset-graph'
import { PLACES } from './dataset-places'
import { CAPTION_MIDDLES, CAPTION_OPENINGS, HASHTAGS, TRACKS } from './dataset-text'
import type { DemoCarouselChild, DemoMedia, DemoUser } from './dataset-types'
import { DATA_AS_OF, DEMO_PRESETS, FIXED_MEDIA, type FixedMediaSpec } from './presets'
import { deriveSeed, Random } from './prng'
import { encodeShortcode, mediaPkAt } from './shortcode'

/** How many posts a data set has in total. */
export const MEDIA_COUNT = 3000

const FIXED_POST_COUNTS: Record<string, number> = {
	[DEMO_PRESETS.viewer.pk]: 24,
	[DEMO_PRESETS.luna.pk]: 120,
	[DEMO_PRESETS.privateAccount.pk]: 18,
	[DEMO_PRESETS.xss.pk]: 9
}

export const THREE_YEARS = 3 * 365 * 86400
const SIZES: readonly [number, number][] = [
	[1080, 1350],
	[1080, 1080],
	[1080, 566]
]

/** Hashtags and mentions in caption text, as Instagram parses them (Unicode word characters). */
export function hashtagsOf(text: string): string[] {
	return [...text.matchAll(/#([\p{L}\p{M}\p{N}_]+)/gu)].map((match) => (match[1] as string).toLowerCase())
}

/** How many posts each account gets: fixed ones as the contract says, the rest by popularity. */
function postCounts(random: Random, users: readonly DemoUser[], graph: SocialGraph): Map<string, number> {
	const counts = new Map<string, number>()
	let remaining = MEDIA_COUNT
	for (const [pk, count] of Object.entries(FIXED_POST_COUNTS)) {
		counts.set(pk, count)
		remaining -= count
	}
	const others = users.filter((user) => !counts.has(user.pk))
	const weights = others.map((user) =>
		random.chance(0.08) ? 0 : 0.6 + (graph.followers.get(user.pk)?.length ?? 0) / 45 + random.next()
	)
	const total = weights.reduce((sum, weight) => sum + weight, 0)
	let assigned = 0
	others.forEach((user, index) => {
		const count =
			index === others.length - 1
				? Math.max(0, remaining - assigned)
				: Math.round(((weights[index] as number) / total) * remaining)
		counts.set(user.pk, count)
		assigned += count
	})
	return counts
}

export function captionFor(random: Random, users: readonly DemoUser[]): string {
	if (random.chance(0.07)) return ''
	let caption = random.pick(CAPTION_OPENINGS) + random.pick(CAPTION_MIDDLES)
	if (random.chance(0.22)) caption += ` with @${random.pick(users).username}`
	const tags = new Set<string>()
	for (const preset of DEMO_PRESETS.hashtags) if (random.chance(0.12)) tags.add(preset)
	for (let count = random.int(0, 3); count > 0; count--) tags.add(random.pick(HASHTAGS))
	if (tags.size > 0)
		caption += `${random.chance(0.5) ? '\n\n' : ' '}${[...tags].map((tag) => `#${tag}`).join(' ')}`
	return caption
}

export interface MediaDraft {
	pk: bigint
	owner: DemoUser
	mediaType: 1 | 2 | 8
	caption: string
	placePk: string | null
	/** A contract post: a reel when it is a video, and enough likes and comments to page through. */
	fixed: boolean
}

export function buildMedia(
	random: Random,
	draft: MediaDraft,
	users: readonly DemoUser[],
	followerCount: number
): DemoMedia {
	const { pk, owner, mediaType } = draft
	const isReel = mediaType === 2 && (random.chance(0.7) || draft.fixed)
	const [width, height] = isReel || mediaType === 2 ? [1080, 1920] : random.pick(SIZES)
	const children: DemoCarouselChild[] = []
	if (mediaType === 8) {
		for (let index = random.int(2, 6); index > 0; index--) {
			children.push({
				pk: pk + BigInt(children.length + 1),
				mediaType: random.chance(0.15) ? 2 : 1,
				width,
				height
			})
		}
	}
	const likerMax = Math.min(380, Math.round(followerCount * 1.2) + 4)
	const likerCount = draft.fixed ? random.int(150, Math.max(150, likerMax)) : random.int(0, likerMax)
	const commentMax = Math.min(45, Math.ceil(likerCount / 5))
	const topLevelCommentCount = draft.fixed
		? random.int(24, Math.max(24, commentMax))
		: random.int(0, commentMax)
	const track = random.int(0, TRACKS.length / 2 - 1) * 2
	const takenAt = Number((pk >> 23n) + 1314220021721n) / 1000
	return {
		pk,
		id: `${pk}_${owner.pk}`,
		code: encodeShortcode(pk),
		ownerPk: owner.pk,
		mediaType,
		productType: mediaType === 8 ? 'carousel_container' : isReel ? 'clips' : 'feed',
		takenAt: Math.floor(takenAt),
		caption: draft.caption,
		captionPk: `17${random.digits(15)}`,
		hashtags: [...new Set(hashtagsOf(draft.caption))],
		likerCount,
		topLevelCommentCount,
		replyCount: random.int(draft.fixed ? 6 : 0, Math.floor(topLevelCommentCount / 2)),
		locationPk: draft.placePk ?? (random.chance(0.4) ? random.pick(PLACES).pk : null),
		usertags: random.chance(0.15) ? random.sample(users, random.int(1, 3)).map((user) => user.pk) : [],
		children,
		width,
		height,
		videoDuration: mediaType === 2 ? random.int(50, 900) / 10 : null,
		playCount: mediaType === 2 ? likerCount * random.int(8, 40) + random.int(0, 999) : null,
		accessibilityCaption: `Photo by ${owner.fullName || owner.username}. May be an image of outdoors.`,
		music: isReel
			? {
					title: TRACKS[track] as string,
					artist: TRACKS[track + 1] as string,
					durationMs: random.int(15, 90) * 1000,
					id: `5${random.digits(15)}`
				}
			: null
	}
}

/** Every post, newest first. Fixed posts keep their contract pks, captions and places. */
export function generateMedia(seed: number, users: readonly DemoUser[], graph: SocialGraph): DemoMedia[] {
	const random = new Random(deriveSeed(seed, 'media'))
	const counts = postCounts(random, users, graph)
	const byPk = new Map<string, DemoUser>(users.map((user) => [user.pk, user]))
	const taken = new Set<bigint>(FIXED_MEDIA.map((media) => media.pk))
	const drafts: MediaDraft[] = FIXED_MEDIA.map((spec: FixedMediaSpec) => ({
		pk: spec.pk,
		owner: byPk.get(spec.ownerPk) as DemoUser,
		mediaType: spec.mediaType,
		caption: spec.caption,
		placePk: spec.placePk,
		fixed: true
	}))
	for (const draft of drafts) counts.set(draft.owner.pk, (counts.get(draft.owner.pk) ?? 0) - 1)
	for (const user of users) {
		for (let index = counts.get(user.pk) ?? 0; index > 0; index--) {
			const takenAtMs = (DATA_AS_OF - random.int(7200, THREE_YEARS)) * 1000 + random.int(0, 999)
			let pk = mediaPkAt(takenAtMs, random.int(0, 0x7fffff))
			while (taken.has(pk)) pk += 1n
			taken.add(pk)
			const roll = random.next()
			drafts.push({
				pk,
				owner: user,
				mediaType: roll < 0.6 ? 1 : roll < 0.85 ? 8 : 2,
				caption: captionFor(random, users),
				placePk: null,
				fixed: false
			})
		}
	}
	drafts.sort((left, right) => (left.pk < right.pk ? 1 : left.pk > right.pk ? -1 : 0))
	return drafts.map((draft) =>
		buildMedia(random, draft, users, graph.followers.get(draft.owner.pk)?.length ?? 0)
	)
}

/**
 * A post published after the data set's "now" (by the simulator's clock): a photo, carousel or reel
 * of `owner` taken at `takenAtMs`, built like the generated ones. `isTaken` rejects pks in use.
 */
export function generateLivePost(
	random: Random,
	owner: DemoUser,
	takenAtMs: number,
	users: readonly DemoUser[],
	followerCount: number,
	isTaken: (pk: bigint) => boolean
): DemoMedia {
	let pk = mediaPkAt(takenAtMs, random.int(0, 0x7fffff))
	while (isTaken(pk)) pk += 1n
	const roll = random.next()
	const mediaType = roll < 0.6 ? 1 : roll < 0.85 ? 8 : 2
	const draft = {
		pk,
		owner,
		mediaType,
		caption: captionFor(random, users),
		placePk: null,
		fixed: false
	} as const
	return buildMedia(random, draft, users, followerCount)
}
