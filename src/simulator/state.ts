/**
 * The live data of one simulator: the shared, read-only {@link Dataset} of its seed plus this instance's
 * own writes (likes, comments, follows, messages). Writes never touch the shared data set, so two
 * simulators with the same seed never see each other's changes.
 */
import { type Dataset, getDataset } from './dataset'
import type { DemoComment, DemoMedia, DemoMessage, DemoThread, DemoUser } from './dataset-types'
import { LiveWorld } from './live-world'
import { DEMO_PRESETS } from './presets'

/** What a follow did: Instagram follows public accounts at once and sends a request to private ones. */
export type FollowResult = 'following' | 'requested'

/** One simulator's view of the data, with its writes applied. The viewer is the demo account. */
export class SimulatorState {
	readonly data: Dataset
	readonly viewerPk = DEMO_PRESETS.viewer.pk
	/** The clock and the follower and post changes it has made (see {@link LiveWorld}). */
	readonly live: LiveWorld
	private readonly baseFollowing: ReadonlySet<string>
	private viewerFollowing: string[]
	private readonly followingSet: Set<string>
	private readonly outgoingRequests = new Set<string>()
	private likedOrder: string[]
	private readonly likedSet: Set<string>
	private readonly addedComments = new Map<string, DemoComment[]>()
	private readonly threadList: DemoThread[]
	private sequence = 0

	constructor(seed?: number) {
		this.data = getDataset(seed)
		this.live = new LiveWorld(this.data)
		const following = this.data.graph.following.get(this.viewerPk) ?? []
		this.baseFollowing = new Set(following)
		this.viewerFollowing = following.slice()
		this.followingSet = new Set(following)
		this.likedOrder = this.data.viewer.likes.slice()
		this.likedSet = new Set(this.likedOrder)
		this.threadList = this.data.viewer.threads.map((thread) => ({
			...thread,
			messages: thread.messages.slice()
		}))
	}

	/** The viewer's account. */
	get viewer(): DemoUser {
		return this.data.userByPk.get(this.viewerPk) as DemoUser
	}

	/** An account by pk, or undefined. */
	user(pk: string): DemoUser | undefined {
		return this.data.userByPk.get(pk)
	}

	/** An account by username (case-insensitive, a leading @ ignored), or undefined. */
	userByUsername(username: string): DemoUser | undefined {
		return this.data.userByUsername.get(username.replace(/^@/, '').toLowerCase())
	}

	/** A post by pk (or by `"<pk>_<owner>"` id), or undefined. */
	media(pkOrId: string): DemoMedia | undefined {
		return this.live.mediaByPk(pkOrId.split('_')[0] as string)
	}

	/** A post by shortcode, or undefined. */
	mediaByCode(code: string): DemoMedia | undefined {
		return this.live.mediaByCode(code)
	}

	/** Posts of an account, newest first (the clock's new posts included). */
	postsOf(pk: string): readonly DemoMedia[] {
		return this.live.postsOf(pk)
	}

	/** Posts of public accounts with a hashtag, newest first. */
	postsTagged(tag: string): readonly DemoMedia[] {
		return this.live.postsTagged(tag)
	}

	/** Every post, newest first. */
	allMedia(): readonly DemoMedia[] {
		return this.live.posts()
	}

	/** Followers of an account, newest first, with the viewer's follows applied. */
	followersOf(pk: string): readonly string[] {
		const base = this.live.followersOf(pk)
		const before = this.baseFollowing.has(pk)
		const now = this.followingSet.has(pk)
		if (before === now) return base
		return now ? [this.viewerPk, ...base] : base.filter((follower) => follower !== this.viewerPk)
	}

	/** Accounts an account follows, newest first. */
	followingOf(pk: string): readonly string[] {
		return pk === this.viewerPk ? this.viewerFollowing : this.live.followingOf(pk)
	}

	/** Whether the viewer follows an account. */
	isFollowing(pk: string): boolean {
		return this.followingSet.has(pk)
	}

	/** Whether an account follows the viewer. */
	followsViewer(pk: string): boolean {
		return this.live.followingOf(pk).includes(this.viewerPk)
	}

	/** Whether the viewer asked to follow this (private) account and waits for approval. */
	hasOutgoingRequest(pk: string): boolean {
		return this.outgoingRequests.has(pk)
	}

	/** Whether `viewerPk` (null when anonymous) may see the posts and lists of `ownerPk`. */
	canView(viewerPk: string | null, ownerPk: string): boolean {
		const owner = this.user(ownerPk)
		if (!owner) return false
		if (!owner.isPrivate || viewerPk === ownerPk) return true
		return viewerPk === this.viewerPk && this.followingSet.has(ownerPk)
	}

	/** Follows an account as the viewer. */
	follow(pk: string): FollowResult {
		if (this.followingSet.has(pk)) return 'following'
		if (this.user(pk)?.isPrivate) {
			this.outgoingRequests.add(pk)
			return 'requested'
		}
		this.followingSet.add(pk)
		this.viewerFollowing = [pk, ...this.viewerFollowing]
		return 'following'
	}

	/** Unfollows an account (or withdraws a pending request). */
	unfollow(pk: string): void {
		this.outgoingRequests.delete(pk)
		if (!this.followingSet.delete(pk)) return
		this.viewerFollowing = this.viewerFollowing.filter((followed) => followed !== pk)
	}

	/** Whether the viewer liked a post. */
	isLiked(media: DemoMedia): boolean {
		return this.likedSet.has(String(media.pk))
	}

	/** Whether the viewer saved a post. */
	isSaved(media: DemoMedia): boolean {
		return this.data.viewer.collections[0]?.mediaPks.includes(String(media.pk)) ?? false
	}

	/** Accounts that liked a post, newest first (the viewer first when they liked it). */
	likersOf(media: DemoMedia): readonly string[] {
		const likers = this.data.likersOf(media)
		return this.isLiked(media) ? [this.viewerPk, ...likers] : likers
	}

	/** A post's like count. */
	likeCount(media: DemoMedia): number {
		return media.likerCount + (this.isLiked(media) ? 1 : 0)
	}

	/** The viewer likes a post. */
	like(media: DemoMedia): void {
		const pk = String(media.pk)
		if (this.likedSet.has(pk)) return
		this.likedSet.add(pk)
		this.likedOrder = [pk, ...this.likedOrder]
	}

	/** The viewer removes their like. */
	unlike(media: DemoMedia): void {
		const pk = String(media.pk)
		if (!this.likedSet.delete(pk)) return
		this.likedOrder = this.likedOrder.filter((liked) => liked !== pk)
	}

	/** Posts the viewer liked, most recently liked first. */
	likedMedia(): DemoMedia[] {
		return this.likedOrder.map((pk) => this.live.mediaByPk(pk)).filter((media) => media !== undefined)
	}

	/** Top-level comments of a post, newest first, the viewer's new ones included. */
	commentsOf(media: DemoMedia): readonly DemoComment[] {
		const added = this.addedComments.get(String(media.pk))
		const base = this.data.commentsOf(media)
		return added ? [...added, ...base] : base
	}

	/** A post's comment count, replies included (as Instagram counts). */
	commentCount(media: DemoMedia): number {
		return (
			media.topLevelCommentCount + media.replyCount + (this.addedComments.get(String(media.pk))?.length ?? 0)
		)
	}

	/** The viewer comments on a post; returns the new comment. */
	addComment(media: DemoMedia, text: string, now: number): DemoComment {
		const comment: DemoComment = {
			pk: `189${String(now).padStart(10, '0')}${String(++this.sequence).padStart(4, '0')}`,
			mediaPk: media.pk,
			userPk: this.viewerPk,
			text,
			createdAt: now,
			likeCount: 0,
			parentPk: null,
			replies: []
		}
		const key = String(media.pk)
		this.addedComments.set(key, [comment, ...(this.addedComments.get(key) ?? [])])
		return comment
	}

	/** The viewer's direct threads, most recently active first. */
	threads(): DemoThread[] {
		const lastActivity = (thread: DemoThread) => thread.messages.at(-1)?.timestampMicros ?? 0
		return this.threadList.slice().sort((left, right) => lastActivity(right) - lastActivity(left))
	}

	/** A thread by id, or undefined. */
	thread(threadId: string): DemoThread | undefined {
		return this.threadList.find((thread) => thread.threadId === threadId)
	}

	/** Sends a text to the thread with exactly these recipients, creating it when there is none. */
	sendText(
		recipientPks: readonly string[],
		text: string,
		nowMicros: number
	): { thread: DemoThread; message: DemoMessage } {
		const key = [...recipientPks].sort().join(',')
		let thread = this.threadList.find((candidate) => [...candidate.userPks].sort().join(',') === key)
		if (!thread) {
			thread = {
				threadId: `340282366841710300949128${String(nowMicros % 10 ** 11).padStart(11, '0')}${String(++this.sequence).padStart(4, '0')}`,
				title: recipientPks.map((pk) => this.user(pk)?.username ?? pk).join(', '),
				isGroup: recipientPks.length > 1,
				muted: false,
				userPks: [...recipientPks],
				messages: []
			}
			this.threadList.push(thread)
		}
		return { thread, message: this.appendMessage(thread, text, nowMicros) }
	}

	/** Sends a text into an existing thread. */
	appendMessage(thread: DemoThread, text: string, nowMicros: number): DemoMessage {
		const message: DemoMessage = {
			itemId: `3${String(nowMicros).padStart(17, '0')}${String(++this.sequence).padStart(20, '0')}`,
			userPk: this.viewerPk,
			timestampMicros: nowMicros,
			text
		}
		thread.messages.push(message)
		return message
	}
}
