/** `/api/media/*`: media details (three normalisations), media by URL, likers, comments and their replies. */
import { Elysia, t } from 'elysia'
import { MAX_MEDIA_URL_LENGTH } from '../../client/api/media'
import { Comment, CommentReply, Media, MediaFull, MediaV2, UserShort } from '../../client/types'
import { Text } from '../../server/text-length'
import type { PlaygroundContext } from '../app'
import { ok } from '../envelope'
import { documented } from './docs'
import { okPage, plural } from './list'
import { ListQuery, MediaPkParam, singleQuery } from './params'

const ByPk = t.Object({ media_pk: MediaPkParam })
const ByComment = t.Object({
	media_pk: MediaPkParam,
	comment_pk: t.String({
		pattern: '^[0-9]{1,25}$',
		error: "Invalid path parameter 'comment_pk': expected a numeric comment id",
		description: "The comment's pk, as a decimal string (a comment's `pk` field)",
		examples: ['18295719549199566']
	})
})

/**
 * `count` of a replies request without one: the walk goes on to the last reply (or to the client's
 * cap of upstream pages per request, with a `next_cursor` to continue from).
 */
const EVERY_REPLY = Number.MAX_SAFE_INTEGER

/** The media route group. */
export const mediaRoutes = ({ ig }: PlaygroundContext) =>
	new Elysia({ prefix: '/api/media' })
		.get(
			'/info/:media_pk',
			async ({ params: { media_pk } }) => ok(await ig.media.getInfo(media_pk), `Media: ${media_pk}`),
			{ params: ByPk, ...documented('Media', 'Media info', Media) }
		)
		.get(
			'/full/:media_pk',
			async ({ params: { media_pk } }) => ok(await ig.media.getFullInfo(media_pk), `Full media: ${media_pk}`),
			{ params: ByPk, ...documented('Media', 'Full media details', MediaFull) }
		)
		.get(
			'/v2/:media_pk',
			async ({ params: { media_pk } }) => ok(await ig.media.getInfoV2(media_pk), `Media (v2): ${media_pk}`),
			{ params: ByPk, ...documented('Media', 'Media info, second-version normalisation', MediaV2) }
		)
		.get(
			'/by-url',
			async ({ query: { url } }) => {
				const media = await ig.media.getByUrl(url)
				return ok(media, `Media: ${media.code ?? media.pk}`)
			},
			{
				...singleQuery(
					t.Object({
						url: Text({
							minLength: 1,
							maxLength: MAX_MEDIA_URL_LENGTH,
							error: "Invalid query parameter 'url': expected a post, reel or tv URL",
							description: 'URL of a post, reel or tv video on instagram.com',
							examples: ['https://www.instagram.com/p/DVUVYxwAOOz/']
						})
					})
				),
				...documented('Media', 'Media by its public URL', Media)
			}
		)
		.get(
			'/likers/:media_pk',
			async ({ params: { media_pk }, query: { count, cursor } }) =>
				okPage(
					await ig.media.getLikers(media_pk, { count, cursor }),
					(received) => `Likers of ${media_pk}: ${plural(received, 'user')}`
				),
			{
				params: ByPk,
				...singleQuery(ListQuery),
				...documented('Media', 'Likers of a post', t.Array(UserShort), { paginated: true })
			}
		)
		.get(
			'/comments/:media_pk',
			async ({ params: { media_pk }, query: { count, cursor } }) =>
				okPage(
					await ig.media.getComments(media_pk, { count, cursor }),
					(received) => `Comments on ${media_pk}: ${plural(received, 'comment')}`
				),
			{
				params: ByPk,
				...singleQuery(ListQuery),
				...documented('Media', 'Parsed comments', t.Array(Comment), { paginated: true })
			}
		)
		.get(
			'/comments/:media_pk/replies/:comment_pk',
			async ({ params: { media_pk, comment_pk }, query: { count, cursor } }) => {
				// Without `count`, every reply ("Show all" on a comment's row), not one upstream page.
				const page = await ig.media.getCommentReplies(media_pk, comment_pk, {
					count: count ?? EVERY_REPLY,
					cursor
				})
				return okPage(
					page,
					(received) =>
						`Replies to comment ${comment_pk}: ${plural(received, 'reply', 'replies')} of ${page.total_count}`
				)
			},
			{
				params: ByComment,
				...singleQuery(ListQuery),
				...documented(
					'Media',
					"Every reply to a comment, oldest first (a comment's replies show at most two); without count, all of them",
					t.Array(CommentReply),
					{ paginated: true }
				)
			}
		)
