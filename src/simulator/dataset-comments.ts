/**
 * Comments and likers of a post, generated on first use from a seed derived from the post's pk, so the
 * data set builds fast and every post still has a fixed, repeatable thread.
 */
import { COMMENT_TEXTS, REPLY_TEXTS } from './dataset-text'
import type { DemoComment, DemoMedia, DemoUser } from './dataset-types'
import { DATA_AS_OF, DEMO_PRESETS, XSS_PAYLOADS } from './presets'
import { deriveSeed, Random } from './prng'

/** Accounts (other than the viewer and the owner) that liked a post, newest first. */
export function generateLikers(seed: number, media: DemoMedia, userPks: readonly string[]): string[] {
	const random = new Random(deriveSeed(seed, 'likers', String(media.pk)))
	const pool = userPks.filter((pk) => pk !== media.ownerPk && pk !== DEMO_PRESETS.viewer.pk)
	return random.sample(pool, media.likerCount)
}

function commentText(random: Random, users: readonly DemoUser[], texts: readonly string[]): string {
	const text = random.pick(texts)
	return random.chance(0.15) ? `@${random.pick(users).username} ${text}` : text
}

/** Top-level comments newest first, each with its replies oldest first. */
export function generateComments(seed: number, media: DemoMedia, users: readonly DemoUser[]): DemoComment[] {
	const random = new Random(deriveSeed(seed, 'comments', String(media.pk)))
	const latest = Math.min(DATA_AS_OF - 60, media.takenAt + 30 * 86400)
	const comments: DemoComment[] = []
	for (let index = 0; index < media.topLevelCommentCount; index++) {
		comments.push({
			pk: `18${random.digits(15)}`,
			mediaPk: media.pk,
			userPk: random.pick(users).pk,
			text: commentText(random, users, COMMENT_TEXTS),
			createdAt: random.int(media.takenAt + 60, Math.max(media.takenAt + 60, latest)),
			likeCount: random.chance(0.6) ? random.int(0, 3) : random.int(0, 60),
			parentPk: null,
			replies: []
		})
	}
	comments.sort((left, right) => right.createdAt - left.createdAt)
	for (let index = 0; index < media.replyCount && comments.length > 0; index++) {
		const parent = random.pick(comments)
		parent.replies.push({
			pk: `18${random.digits(15)}`,
			mediaPk: media.pk,
			userPk: random.chance(0.4) ? media.ownerPk : random.pick(users).pk,
			text: `@${users.find((user) => user.pk === parent.userPk)?.username ?? 'someone'} ${random.pick(REPLY_TEXTS)}`,
			createdAt: Math.min(DATA_AS_OF - 30, parent.createdAt + random.int(60, 86400)),
			likeCount: random.int(0, 5),
			parentPk: parent.pk,
			replies: []
		})
	}
	for (const comment of comments) comment.replies.sort((left, right) => left.createdAt - right.createdAt)
	const newest = comments[0]
	if (String(media.pk) === DEMO_PRESETS.xssMediaPks[0] && newest) {
		// The contract's hostile comment: the newest on xss.payload's own first hostile post (a test
		// fixture, kept off luna.explorer's posts that people open first).
		Object.assign(newest, {
			userPk: DEMO_PRESETS.xss.pk,
			text: `${XSS_PAYLOADS.imgOnerror} nice pic #sunset`
		})
	}
	return comments
}
