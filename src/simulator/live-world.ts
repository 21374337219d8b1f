/**
 * The simulator's clock and what it changes. Simulated time starts at DATA_AS_OF and moves only when
 * asked (`POST /__sim/clock`). Each whole hour that passes applies that hour's events to one simulator
 * instance: accounts gain and lose followers and publish posts. An hour's events derive from the seed,
 * the hour's number and the world they apply to (itself the product of the earlier hours), so a seed and
 * a clock reading always give the same world, whether the clock moved 48 hours at once or 24 twice.
 *
 * The shared data set is never touched: changed lists live here, copied on write, and every reader
 * (follower lists, profile counts, feeds, tag feeds) goes through the same accessors, so counts, lists
 * and pages agree at any clock reading.
 */
import type { Dataset } from './dataset'
import { generateLivePost } from './dataset-media'
import type { DemoMedia } from './dataset-types'
import { DATA_AS_OF, DEMO_PRESETS } from './presets'
import { deriveSeed, Random } from './prng'

/** The longest single move of the clock, in hours (a week; a move runs every hour's events at once). */
export const MAX_ADVANCE_HOURS = 168

/** What `GET /__sim/clock` reports. */
export interface ClockReading {
	/** Hours the clock has moved since the data set's "now" (DATA_AS_OF). */
	hours: number
	/** Simulated unix time in seconds. */
	now: number
	/** The same as an ISO 8601 UTC string. */
	iso: string
	/** Whole hours whose events have been applied. */
	applied_hours: number
}

/** Newest first by pk (pks carry their creation time in the upper bits). */
const byNewest = (left: DemoMedia, right: DemoMedia) => (left.pk < right.pk ? 1 : left.pk > right.pk ? -1 : 0)

/** The moving part of one simulator's world. */
export class LiveWorld {
	private elapsedSeconds = 0
	private appliedHours = 0
	private readonly followerLists = new Map<string, readonly string[]>()
	private readonly followingLists = new Map<string, readonly string[]>()
	/** Posts the clock published, oldest first: all, per owner, per hashtag (public owners only). */
	private readonly published: DemoMedia[] = []
	private readonly publishedByOwner = new Map<string, DemoMedia[]>()
	private readonly publishedByTag = new Map<string, DemoMedia[]>()
	private readonly postsByPk = new Map<string, DemoMedia>()
	private readonly postsByCode = new Map<string, DemoMedia>()
	/** Full lists (published then base, newest first), built when read and dropped when they change. */
	private readonly listCache = new Map<string, readonly DemoMedia[]>()
	private readonly userPks: readonly string[]

	constructor(private readonly data: Dataset) {
		this.userPks = data.users.map((user) => user.pk)
	}

	/** The clock's reading. */
	reading(): ClockReading {
		const now = DATA_AS_OF + Math.floor(this.elapsedSeconds)
		return {
			hours: this.elapsedSeconds / 3600,
			now,
			iso: new Date(now * 1000).toISOString(),
			applied_hours: this.appliedHours
		}
	}

	/** Moves the clock forward by `hours` (0 < hours <= MAX_ADVANCE_HOURS) and applies every hour it completes. */
	advance(hours: number): ClockReading {
		if (!Number.isFinite(hours) || hours <= 0 || hours > MAX_ADVANCE_HOURS) {
			throw new RangeError(`advance_hours must be a number above 0 and at most ${MAX_ADVANCE_HOURS}`)
		}
		// Whole seconds, so fractional steps add up exactly (0.5 h twice is one hour).
		this.elapsedSeconds += Math.round(hours * 3600)
		const target = Math.floor(this.elapsedSeconds / 3600)
		while (this.appliedHours < target) this.applyHour(++this.appliedHours)
		return this.reading()
	}

	/** Followers of an account (base data plus the clock's changes), newest first. */
	followersOf(pk: string): readonly string[] {
		return this.followerLists.get(pk) ?? this.data.graph.followers.get(pk) ?? []
	}

	/** Accounts an account follows (base data plus the clock's changes), newest first. */
	followingOf(pk: string): readonly string[] {
		return this.followingLists.get(pk) ?? this.data.graph.following.get(pk) ?? []
	}

	/** Posts of an account, newest first. */
	postsOf(pk: string): readonly DemoMedia[] {
		return this.merged(`owner:${pk}`, this.publishedByOwner.get(pk), this.data.mediaByOwner.get(pk))
	}

	/** Posts of public accounts with a hashtag, newest first. */
	postsTagged(tag: string): readonly DemoMedia[] {
		return this.merged(`tag:${tag}`, this.publishedByTag.get(tag), this.data.mediaByTag.get(tag))
	}

	/** Every post, newest first. */
	posts(): readonly DemoMedia[] {
		return this.merged('all', this.published, this.data.media)
	}

	/** A post by pk. */
	mediaByPk(pk: string): DemoMedia | undefined {
		return this.postsByPk.get(pk) ?? this.data.mediaByPk.get(pk)
	}

	/** A post by shortcode. */
	mediaByCode(code: string): DemoMedia | undefined {
		return this.postsByCode.get(code) ?? this.data.mediaByCode.get(code)
	}

	/**
	 * One hour's events. Per account (the demo viewer excepted: its relations belong to its own
	 * writes): a chance to gain a follower and to lose one, both growing with the audience, and a
	 * chance to publish a post within the hour.
	 */
	private applyHour(hour: number): void {
		const random = new Random(deriveSeed(this.data.seed, 'clock', hour))
		const hourStartMs = (DATA_AS_OF + (hour - 1) * 3600) * 1000
		const published: DemoMedia[] = []
		for (const user of this.data.users) {
			if (user.pk === DEMO_PRESETS.viewer.pk) continue
			const audience = this.followersOf(user.pk).length
			// Bigger audiences churn more; gains slightly outrun losses, so accounts grow slowly.
			if (random.chance(Math.min(0.45, 0.012 + audience / 850))) this.gainFollower(random, user.pk)
			if (random.chance(Math.min(0.4, 0.01 + audience / 1000))) this.loseFollower(random, user.pk)
			if (random.chance(0.003 + audience / 20000)) {
				const takenAtMs = hourStartMs + random.int(0, 3_599_999)
				const post = generateLivePost(random, user, takenAtMs, this.data.users, audience, (pk) =>
					Boolean(this.mediaByPk(String(pk)))
				)
				this.postsByPk.set(String(post.pk), post)
				published.push(post)
			}
		}
		this.publish(published)
	}

	private gainFollower(random: Random, pk: string): void {
		const followers = this.followersOf(pk)
		for (let attempt = 0; attempt < 8; attempt++) {
			const candidate = random.pick(this.userPks)
			if (candidate === pk || candidate === DEMO_PRESETS.viewer.pk || followers.includes(candidate)) continue
			this.followerLists.set(pk, [candidate, ...followers])
			this.followingLists.set(candidate, [pk, ...this.followingOf(candidate)])
			return
		}
	}

	private loseFollower(random: Random, pk: string): void {
		const followers = this.followersOf(pk)
		if (followers.length === 0) return
		// The viewer never leaves (its relations are its own writes): draw again, then give up.
		let index = random.int(0, followers.length - 1)
		if (followers[index] === DEMO_PRESETS.viewer.pk) index = random.int(0, followers.length - 1)
		const leaver = followers[index] as string
		if (leaver === DEMO_PRESETS.viewer.pk) return
		this.followerLists.set(pk, [...followers.slice(0, index), ...followers.slice(index + 1)])
		this.followingLists.set(
			leaver,
			this.followingOf(leaver).filter((followed) => followed !== pk)
		)
	}

	/** Newest-first list of `published` (oldest first) followed by `base`, cached under `key`. */
	private merged(
		key: string,
		published: readonly DemoMedia[] | undefined,
		base: readonly DemoMedia[] | undefined
	): readonly DemoMedia[] {
		if (!published || published.length === 0) return base ?? []
		let list = this.listCache.get(key)
		if (!list) {
			list = [...published.toReversed(), ...(base ?? [])]
			this.listCache.set(key, list)
		}
		return list
	}

	/** Adds an hour's new posts to the global, owner and tag lists. */
	private publish(published: DemoMedia[]): void {
		const append = (lists: Map<string, DemoMedia[]>, key: string, post: DemoMedia, cacheKey: string) => {
			lists.get(key)?.push(post) ?? lists.set(key, [post])
			this.listCache.delete(cacheKey)
		}
		// Oldest first, like the lists they join.
		for (const post of published.sort(byNewest).toReversed()) {
			this.postsByCode.set(post.code, post)
			this.published.push(post)
			this.listCache.delete('all')
			append(this.publishedByOwner, post.ownerPk, post, `owner:${post.ownerPk}`)
			// Tag feeds leave private accounts out, as the data set's do.
			if (this.data.userByPk.get(post.ownerPk)?.isPrivate) continue
			for (const tag of post.hashtags) append(this.publishedByTag, tag, post, `tag:${tag}`)
		}
	}
}
