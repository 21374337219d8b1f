/** The pure figures behind analytics and hashtag snapshots: top posts and caption hashtags. */
import { expect, test } from 'bun:test'
import { captionHashtags, topPosts } from '../../src/client/tools/analytics'
import type { Media } from '../../src/client/types'

test("a top post's caption is cut at 200 characters, never inside an emoji", () => {
	const caption = `${'a'.repeat(199)}🌅 and the rest`
	const [post] = topPosts([{ code: 'X', caption_text: caption, like_count: 1, comment_count: 0 } as Media], 1)
	expect(post?.caption_text).toBe(`${'a'.repeat(199)}🌅`)
	expect(post?.caption_text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/)
})

test('a caption hashtag needs one character that is not a digit: "#1" is no hashtag', () => {
	expect(captionHashtags('We are #1 in #2024 at #Tokyo2024, #東京 and #_1; #１２')).toEqual([
		'tokyo2024',
		'東京',
		'_1'
	])
	expect(captionHashtags('#Sunset #sunset')).toEqual(['sunset'])
})
