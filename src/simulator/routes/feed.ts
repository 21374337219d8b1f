/**
 * Feeds: `/feed/user/{pk}/` (count, max_id = the last item's `"<pk>_<owner>"` id, as Instagram pages it),
 * `/feed/tag/{tag}/` (max_id; posts in `sections[].layout_content.medias[].media`), and the REST liked and saved feeds `/feed/liked/`, `/feed/saved/posts/`.
 */
import { decodeCursor, pageOf, pageSize } from '../cursor'
import type { DemoMedia } from '../dataset-types'
import { fail, ok, type Reply, type Route, type RouteContext } from '../http'
import { mediaItem } from '../views-media'
import { userShort } from '../views-user'
import { isReply, visibleUserParam } from './common'

/** The largest `count` the user feed honours (Instagram caps pages near this). */
const MAX_FEED_PAGE = 50

/** A page after the item whose id (or pk) is `maxId`; Instagram's user feed cursor is the last item's id. */
function pageAfterId(items: readonly DemoMedia[], maxId: string | null, size: number) {
	let start = 0
	if (maxId) {
		const pk = maxId.split('_')[0]
		const index = items.findIndex((media) => String(media.pk) === pk)
		if (index < 0) return null
		start = index + 1
	}
	const page = items.slice(start, start + size)
	const more = start + page.length < items.length
	return { page, nextMaxId: more ? (page.at(-1)?.id ?? null) : null }
}

function mediaList(
	context: RouteContext,
	items: readonly DemoMedia[],
	cursorKind: string,
	size: number
): Reply {
	const offset = decodeCursor(cursorKind, context.query.get('max_id'))
	if (offset === null) return fail(400, 'Invalid max_id')
	const { page, nextCursor } = pageOf(items, cursorKind, offset, size)
	return ok({
		items: page.map((media) => mediaItem(context, media)),
		num_results: page.length,
		more_available: nextCursor !== null,
		next_max_id: nextCursor ?? undefined,
		auto_load_more_enabled: true
	})
}

/** Feed routes. */
export const feedRoutes: readonly Route[] = [
	{
		method: 'GET',
		path: '/api/v1/feed/user/:pk/',
		access: 'session',
		handle(context) {
			const user = visibleUserParam(context)
			if (isReply(user)) return user
			const size = pageSize(context.query.get('count'), 12, MAX_FEED_PAGE)
			const posts = context.state.postsOf(user.pk)
			const result = pageAfterId(posts, context.query.get('max_id'), size)
			if (!result) return fail(400, 'Invalid max_id')
			return ok({
				items: result.page.map((media) => mediaItem(context, media)),
				num_results: result.page.length,
				more_available: result.nextMaxId !== null,
				next_max_id: result.nextMaxId ?? undefined,
				user: userShort(context, user),
				auto_load_more_enabled: true
			})
		}
	},
	{
		method: 'GET',
		path: '/api/v1/feed/tag/:tag/',
		access: 'session',
		handle(context) {
			const tag = (context.params.tag ?? '').replace(/^#/, '').toLowerCase()
			const items = context.state.postsTagged(tag)
			const reply = mediaList(context, items, `tag-${tag}`, 20)
			const { items: medias, ...rest } = reply.body as { items?: unknown[] }
			if (reply.status !== 200 || !medias) return reply
			// Instagram's current tag feed nests the posts in sections of grid rows instead of `items`.
			const sections = []
			for (let index = 0; index < medias.length; index += 3) {
				sections.push({
					layout_type: 'media_grid',
					layout_content: { medias: medias.slice(index, index + 3).map((media) => ({ media })) },
					feed_type: 'media'
				})
			}
			return { ...reply, body: { sections, ...rest, next_page: 1, next_media_ids: [] } }
		}
	},
	{
		method: 'GET',
		path: '/api/v1/feed/liked/',
		access: 'session',
		handle: (context) => mediaList(context, context.state.likedMedia(), 'liked', 20)
	},
	{
		method: 'GET',
		path: '/api/v1/feed/saved/posts/',
		access: 'session',
		handle(context) {
			const saved = (context.state.data.viewer.collections[0]?.mediaPks ?? []).flatMap(
				(pk) => context.state.media(pk) ?? []
			)
			const reply = mediaList(context, saved, 'saved', 20)
			const body = reply.body as { items?: unknown[] }
			// The saved feed wraps each post as `{media}`.
			return body.items
				? { ...reply, body: { ...body, items: body.items.map((media) => ({ media })) } }
				: reply
		}
	}
]
