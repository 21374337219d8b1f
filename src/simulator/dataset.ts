/**
 * The seeded demo data set (docs/architecture.md, "Demo mode and the simulator"): hundreds of users,
 * thousands of posts, comments and
 * likers, a follower graph, hashtags, places, stories, highlights, notifications and direct threads.
 * One immutable instance per seed is built on first use and shared; simulators overlay their writes.
 */
import { generateComments, generateLikers } from './dataset-comments'
import { generateGraph, type SocialGraph } from './dataset-graph'
import { generateMedia } from './dataset-media'
import { generateMegaAccount } from './dataset-mega'
import { PLACES } from './dataset-places'
import { generateHighlights, generateStories } from './dataset-stories'
import type {
	DemoComment,
	DemoHashtag,
	DemoHighlight,
	DemoMedia,
	DemoPlace,
	DemoStory,
	DemoUser
} from './dataset-types'
import { generateUsers } from './dataset-users'
import { generateViewerData, type ViewerData } from './dataset-viewer'
import { DEFAULT_SEED } from './presets'
import { deriveSeed } from './prng'

/** The read-only base data of one seed, with lookup indexes. */
export class Dataset {
	readonly users: readonly DemoUser[]
	readonly userByPk: ReadonlyMap<string, DemoUser>
	readonly userByUsername: ReadonlyMap<string, DemoUser>
	readonly graph: SocialGraph
	/** Every post, newest first. */
	readonly media: readonly DemoMedia[]
	readonly mediaByPk: ReadonlyMap<string, DemoMedia>
	readonly mediaByCode: ReadonlyMap<string, DemoMedia>
	/** Posts of each account, newest first. */
	readonly mediaByOwner: ReadonlyMap<string, readonly DemoMedia[]>
	/** Posts of public accounts per hashtag, newest first (tag feeds leave private accounts out). */
	readonly mediaByTag: ReadonlyMap<string, readonly DemoMedia[]>
	readonly hashtags: ReadonlyMap<string, DemoHashtag>
	readonly places: readonly DemoPlace[]
	readonly placeByPk: ReadonlyMap<string, DemoPlace>
	readonly stories: ReadonlyMap<string, readonly DemoStory[]>
	readonly highlights: ReadonlyMap<string, readonly DemoHighlight[]>
	readonly viewer: ViewerData
	private readonly likersCache = new Map<string, string[]>()
	private readonly commentsCache = new Map<string, DemoComment[]>()
	private readonly userPks: readonly string[]
	/** The accounts comments are written by (mega.travel's followers only follow). */
	private readonly baseUsers: readonly DemoUser[]

	constructor(readonly seed: number) {
		// mega.travel comes last from its own random streams, so the rest is the same without it.
		const baseUsers = generateUsers(seed)
		const graph = generateGraph(seed, baseUsers)
		const baseMedia = generateMedia(seed, baseUsers, graph)
		const mega = generateMegaAccount(seed, baseUsers, baseMedia)
		graph.followers.set(mega.user.pk, mega.followers)
		graph.following.set(mega.user.pk, mega.following)
		const followedByMega = new Set(mega.following)
		for (const follower of mega.followerAccounts) {
			graph.followers.set(follower.pk, followedByMega.has(follower.pk) ? [mega.user.pk] : [])
			graph.following.set(follower.pk, [mega.user.pk])
		}
		this.users = [...baseUsers, mega.user, ...mega.followerAccounts]
		this.userPks = baseUsers.map((user) => user.pk)
		this.userByPk = new Map(this.users.map((user) => [user.pk, user]))
		this.userByUsername = new Map(this.users.map((user) => [user.username, user]))
		this.graph = graph
		this.media = [...baseMedia, ...mega.media].sort((left, right) =>
			left.pk < right.pk ? 1 : left.pk > right.pk ? -1 : 0
		)
		this.mediaByPk = new Map(this.media.map((media) => [String(media.pk), media]))
		this.mediaByCode = new Map(this.media.map((media) => [media.code, media]))
		const byOwner = new Map<string, DemoMedia[]>()
		const byTag = new Map<string, DemoMedia[]>()
		const hashtags = new Map<string, DemoHashtag>()
		for (const media of this.media) {
			byOwner.get(media.ownerPk)?.push(media) ?? byOwner.set(media.ownerPk, [media])
			const isPublic = !this.userByPk.get(media.ownerPk)?.isPrivate
			for (const tag of media.hashtags) {
				if (!hashtags.has(tag)) hashtags.set(tag, { id: hashtagId(tag), name: tag })
				if (isPublic) byTag.get(tag)?.push(media) ?? byTag.set(tag, [media])
			}
		}
		this.mediaByOwner = byOwner
		this.mediaByTag = byTag
		this.hashtags = hashtags
		this.places = PLACES
		this.placeByPk = new Map(PLACES.map((place) => [place.pk, place]))
		this.stories = generateStories(seed, baseUsers)
		this.highlights = generateHighlights(seed, baseUsers, byOwner)
		this.viewer = generateViewerData(seed, baseUsers, this.graph, baseMedia)
		this.baseUsers = baseUsers
	}

	/** Accounts other than the viewer that liked a post, newest first (generated on first use). */
	likersOf(media: DemoMedia): readonly string[] {
		const key = String(media.pk)
		let likers = this.likersCache.get(key)
		if (!likers) {
			likers = generateLikers(this.seed, media, this.userPks)
			this.likersCache.set(key, likers)
		}
		return likers
	}

	/** Top-level comments of a post, newest first, with replies (generated on first use). */
	commentsOf(media: DemoMedia): readonly DemoComment[] {
		const key = String(media.pk)
		let comments = this.commentsCache.get(key)
		if (!comments) {
			comments = generateComments(this.seed, media, this.baseUsers)
			this.commentsCache.set(key, comments)
		}
		return comments
	}
}

/** A stable 17-digit hashtag id (beyond 2^53, like Instagram's), independent of the seed. */
function hashtagId(name: string): bigint {
	const low = BigInt(deriveSeed('hashtag', name)) * 1000n + BigInt(deriveSeed('hashtag-low', name) % 1000)
	return 17841000000000000n + (low % 1000000000000n)
}

const cache = new Map<number, Dataset>()

/** The data set of a seed, built on first use and cached for the life of the process. */
export function getDataset(seed: number = DEFAULT_SEED): Dataset {
	let dataset = cache.get(seed)
	if (!dataset) {
		dataset = new Dataset(seed)
		cache.set(seed, dataset)
	}
	return dataset
}
