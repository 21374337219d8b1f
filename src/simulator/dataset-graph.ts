/**
 * The follower graph of the demo data set. Lists are newest first, as Instagram pages them. The viewer
 * follows luna.explorer and xss.payload but not private.pat; luna.explorer has more than 200 followers.
 */
import type { DemoUser } from './dataset-types'
import { DEMO_PRESETS } from './presets'
import { deriveSeed, Random } from './prng'

/** Who follows whom, and the viewer's special relations. */
export interface SocialGraph {
	/** Followers of each account, newest first. */
	followers: Map<string, string[]>
	/** Accounts each account follows, newest first. */
	following: Map<string, string[]>
	/** Accounts that asked to follow the (private) viewer. */
	pendingRequests: string[]
	/** Accounts the viewer blocked, and restricted. */
	blocked: string[]
	restricted: string[]
	/** The viewer's close friends (`is_bestie`). */
	closeFriends: string[]
}

const FIXED_FOLLOWER_COUNTS: Record<string, number> = {
	[DEMO_PRESETS.viewer.pk]: 96,
	[DEMO_PRESETS.luna.pk]: 263,
	[DEMO_PRESETS.privateAccount.pk]: 45,
	[DEMO_PRESETS.xss.pk]: 37
}

/** How many followers an account gets: a long tail, more for verified accounts. */
function followerCountFor(random: Random, user: DemoUser): number {
	const fixed = FIXED_FOLLOWER_COUNTS[user.pk]
	if (fixed !== undefined) return fixed
	if (user.isVerified) return random.int(150, 320)
	return Math.round(Math.exp(random.next() * Math.log(170))) + random.int(1, 6)
}

/** Builds the graph for `users` (the viewer first). */
export function generateGraph(seed: number, users: readonly DemoUser[]): SocialGraph {
	const random = new Random(deriveSeed(seed, 'graph'))
	const { viewer, luna, privateAccount, xss } = DEMO_PRESETS
	const others = users.filter((user) => user.pk !== viewer.pk).map((user) => user.pk)
	const generated = others.filter((pk) => pk !== luna.pk && pk !== privateAccount.pk && pk !== xss.pk)

	const viewerFollowing = new Set([luna.pk, xss.pk, ...random.sample(generated, 118)])
	const pendingRequests = random.sample(
		generated.filter((pk) => !viewerFollowing.has(pk)),
		8
	)
	const followers = new Map<string, string[]>()
	for (const user of users) {
		const count = followerCountFor(random, user)
		if (user.pk === viewer.pk) {
			const pool = others.filter((pk) => pk !== luna.pk && !pendingRequests.includes(pk))
			const list = random.sample(pool, count - 1)
			list.splice(random.int(0, list.length), 0, luna.pk)
			followers.set(user.pk, list)
			continue
		}
		const pool = others.filter((pk) => pk !== user.pk)
		const list = random.sample(pool, viewerFollowing.has(user.pk) ? count - 1 : count)
		if (viewerFollowing.has(user.pk)) list.splice(random.int(0, list.length), 0, viewer.pk)
		followers.set(user.pk, list)
	}

	const following = new Map<string, string[]>(users.map((user) => [user.pk, []]))
	for (const [target, list] of followers) for (const follower of list) following.get(follower)?.push(target)
	for (const [pk, list] of following) following.set(pk, random.shuffle(list))

	const viewerFollowers = new Set(followers.get(viewer.pk))
	const strangers = generated.filter((pk) => !viewerFollowing.has(pk) && !viewerFollowers.has(pk))
	const blocked = random.sample(
		strangers.filter((pk) => !pendingRequests.includes(pk)),
		5
	)
	const restricted = random.sample(
		[...viewerFollowers].filter((pk) => pk !== luna.pk && !viewerFollowing.has(pk)),
		3
	)
	const mutuals = [...viewerFollowing].filter((pk) => pk !== luna.pk && viewerFollowers.has(pk))
	const closeFriends = [luna.pk, ...random.sample(mutuals, 6)]
	return { followers, following, pendingRequests, blocked, restricted, closeFriends }
}
