import { describe, expect, it } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { Comment, CommentReply, Media, MediaFull, MediaV2 } from '../../src/client/types'
import { DEMO, failure, useSimulator } from './simulator-setup'

const context = useSimulator()
const [[firstCode, firstPk]] = DEMO.posts

describe('ig.media against the simulator', () => {
	it('carries a media pk above 2^53 from the raw upstream text to the caller unchanged', async () => {
		const raw = await fetch(`${context.sim.url}/api/v1/media/${firstPk}/info/`, {
			headers: { cookie: `sessionid=${context.sim.credentials.sessionId}` }
		}).then((response) => response.text())
		// The simulator sends the pk as a bare JSON number, as Instagram does.
		expect(raw).toContain(`"pk":${firstPk}`)
		expect(BigInt(firstPk) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true)
		const media = await context.client().media.getInfo(firstPk)
		expect(media.pk).toBe(firstPk)
		expect(media.id).toBe(`${firstPk}_${DEMO.luna.pk}`)
		expect(media.code).toBe(firstCode)
	})

	it('returns the Media model with its contract fields', async () => {
		const media = await context.client().media.getInfo(firstPk)
		expect(Value.Check(Media, media)).toBe(true)
		expect(media.user).toMatchObject({ pk: DEMO.luna.pk, username: 'luna.explorer' })
		expect(media.caption_text.length).toBeGreaterThan(0)
		expect(media.thumbnail_url).toStartWith('http')
		expect(media.image_versions.length).toBeGreaterThan(0)
	})

	for (const [code, pk] of DEMO.posts) {
		it(`finds ${code} by URL as media ${pk}`, async () => {
			const media = await context.client().media.getByUrl(`https://www.instagram.com/p/${code}/?img_index=1`)
			expect(media.pk).toBe(pk)
			expect(media.code).toBe(code)
		})
	}

	it('gets fuller info: owner profile, first comments and likers', async () => {
		const full = await context.client().media.getFullInfo(firstPk)
		expect(Value.Check(MediaFull, full)).toBe(true)
		expect(full.owner?.username).toBe('luna.explorer')
		expect(full.comments_preview.length).toBeGreaterThan(0)
		expect(full.likers_count).toBe(full.like_count)
		expect(full.likers_preview.length).toBeGreaterThan(0)
	})

	it('gets the v2 normalisation', async () => {
		const media = await context.client().media.getInfoV2(DEMO.posts[1][1])
		expect(Value.Check(MediaV2, media)).toBe(true)
		expect(media.shortcode).toBe(DEMO.posts[1][0])
		expect(['photo', 'video', 'reel', 'carousel']).toContain(media.media_type_name)
		expect(media.is_reel).toBe(media.product_type === 'clips')
		expect(media.images.length).toBeGreaterThan(0)
	})

	it('lists likers', async () => {
		const page = await context.client().media.getLikers(firstPk, { count: 5 })
		expect(page.items.length).toBe(5)
	})

	it('pages comments up to count with totals', async () => {
		const ig = context.client()
		const first = await ig.media.getComments(firstPk)
		expect(first.total_count).toBeGreaterThan(first.items.length)
		expect(first.has_more).toBe(true)
		expect(Value.Check(Comment, first.items[0])).toBe(true)
		const collected = await ig.media.getComments(firstPk, { count: first.items.length + 5 })
		expect(collected.items.length).toBe(first.items.length + 5)
		expect(new Set(collected.items.map((comment) => comment.pk)).size).toBe(collected.items.length)
		const next = await ig.media.getComments(firstPk, { cursor: first.next_cursor })
		expect(next.items[0]?.pk).toBe(collected.items[first.items.length]?.pk as string)
	})

	it('walks every reply of a comment, beyond the two its replies field shows', async () => {
		const ig = context.client()
		const state = context.sim.state
		// The comment of luna.explorer's posts with the most replies.
		const [media, thread] = state
			.postsOf(DEMO.luna.pk)
			.flatMap((post) => state.commentsOf(post).map((comment) => [post, comment] as const))
			.reduce((best, entry) => (entry[1].replies.length > best[1].replies.length ? entry : best))
		const expected = thread.replies.map((reply) => reply.pk)
		expect(expected.length).toBeGreaterThan(2)
		const shown = (await ig.media.getComments(String(media.pk), { count: 100 })).items.find(
			(comment) => comment.pk === thread.pk
		)
		expect(shown?.reply_count).toBe(expected.length)
		expect(shown?.replies.map((reply) => reply.pk)).toEqual(expected.slice(0, 2))

		const all = await ig.media.getCommentReplies(String(media.pk), thread.pk, { count: 100 })
		expect(all.items.map((reply) => reply.pk)).toEqual(expected)
		expect(all.total_count).toBe(expected.length)
		expect(all.next_cursor).toBeNull()
		expect(all.items.every((reply) => Value.Check(CommentReply, reply))).toBe(true)
		// Page by page, with a count that ends inside an upstream page: each reply once, in order.
		const walked: string[] = []
		let cursor: string | null = null
		do {
			const page = await ig.media.getCommentReplies(String(media.pk), thread.pk, { count: 1, cursor })
			walked.push(...page.items.map((reply) => reply.pk))
			cursor = page.next_cursor
		} while (cursor)
		expect(walked).toEqual(expected)

		expect((await failure(ig.media.getCommentReplies(String(media.pk), '1'))).kind).toBe('not_found')
		expect((await failure(ig.media.getCommentReplies(String(media.pk), 'abc'))).kind).toBe('bad_request')
	})

	it('likes and unlikes, and the simulator state follows', async () => {
		const ig = context.client()
		const pk = DEMO.posts[2][1]
		const media = context.sim.state.media(pk)
		if (!media) throw new Error('preset media missing')
		expect(await ig.media.like(pk)).toEqual({ media_pk: pk, has_liked: true })
		expect(context.sim.state.isLiked(media)).toBe(true)
		expect((await ig.media.getInfo(pk)).has_liked).toBe(true)
		expect(await ig.media.unlike(pk)).toEqual({ media_pk: pk, has_liked: false })
		expect(context.sim.state.isLiked(media)).toBe(false)
	})

	it('comments as the viewer', async () => {
		const comment = await context.client().media.comment(firstPk, 'Lovely light #sunset @luna.explorer')
		expect(comment.user.username).toBe('smkit_demo')
		expect(comment.hashtags).toEqual(['sunset'])
		expect(comment.mentions).toEqual(['luna.explorer'])
		const media = context.sim.state.media(firstPk)
		expect(
			context.sim.state.commentsOf(media as never).some((entry) => entry.text.startsWith('Lovely light'))
		).toBe(true)
	})

	it('answers not_found for an unknown media and rejects a bad pk locally', async () => {
		const ig = context.client()
		expect((await failure(ig.media.getInfo('3842790443716764000'))).kind).toBe('not_found')
		expect((await failure(ig.media.getInfo('abc'))).kind).toBe('bad_request')
		expect((await failure(ig.media.getByUrl('https://example.com/nothing'))).kind).toBe('bad_request')
	})
})
