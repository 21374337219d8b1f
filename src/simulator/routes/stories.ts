/**
 * Stories: `/feed/user/{pk}/story/` (`reel` or null), `/highlights/{pk}/highlights_tray/` and the
 * viewer's `/feed/reels_tray/` (accounts they follow with active stories, their own first).
 */
import type { DemoUser } from '../dataset-types'
import { ok, type Route, type RouteContext } from '../http'
import { imageUrl } from '../views-media'
import { storyItem } from '../views-story'
import { userShort } from '../views-user'
import { isReply, userParam } from './common'

/** A user's reel: active stories oldest first, or null when there are none (or they are hidden). */
function reelOf(context: RouteContext, user: DemoUser, withItems: boolean) {
	const stories = context.state.data.stories.get(user.pk)
	if (!stories || stories.length === 0 || !context.state.canView(context.viewerPk, user.pk)) return null
	const items = stories.map((story) => storyItem(context, story))
	const latest = items.at(-1) as (typeof items)[number]
	const hasBesties = context.state.data.graph.closeFriends.includes(user.pk)
	return {
		id: user.pk,
		strong_id__: user.pk,
		latest_reel_media: latest.taken_at,
		expiring_at: latest.expiring_at,
		seen: 0,
		can_reply: true,
		can_reshare: true,
		reel_type: 'user_reel',
		user: userShort(context, user),
		items: withItems ? items : undefined,
		media_count: items.length,
		media_ids: stories.map((story) => story.pk),
		has_besties_media: hasBesties,
		has_video: stories.some((story) => story.mediaType === 2)
	}
}

/** Story routes. */
export const storiesRoutes: readonly Route[] = [
	{
		method: 'GET',
		path: '/api/v1/feed/user/:pk/story/',
		access: 'session',
		handle(context) {
			const user = userParam(context)
			if (isReply(user)) return user
			return ok({ reel: reelOf(context, user, true) })
		}
	},
	{
		method: 'GET',
		path: '/api/v1/highlights/:pk/highlights_tray/',
		access: 'session',
		handle(context) {
			const user = userParam(context)
			if (isReply(user)) return user
			const visible = context.state.canView(context.viewerPk, user.pk)
			const tray = (visible ? (context.state.data.highlights.get(user.pk) ?? []) : []).map((highlight) => ({
				id: highlight.id,
				strong_id__: highlight.id,
				title: highlight.title,
				media_count: highlight.mediaCount,
				created_at: highlight.createdAt,
				updated_timestamp: highlight.updatedAt,
				latest_reel_media: highlight.updatedAt,
				is_pinned_highlight: highlight.isPinned,
				reel_type: 'highlight_reel',
				cover_media: {
					cropped_image_version: {
						url: imageUrl(context.origin, highlight.coverKey, 150, 150),
						width: 150,
						height: 150
					},
					full_image_version: null
				},
				user: userShort(context, user)
			}))
			return ok({ tray, show_empty_state: false })
		}
	},
	{
		method: 'GET',
		path: '/api/v1/feed/reels_tray/',
		access: 'session',
		handle(context) {
			const { state } = context
			const candidates = [
				state.viewer,
				...state.followingOf(state.viewerPk).flatMap((pk) => state.user(pk) ?? [])
			]
			const reels = candidates.flatMap((user) => reelOf(context, user, false) ?? [])
			// Own reel first, then most recent; the first few carry their items, as Instagram prefetches them.
			const [own, ...others] = reels[0]?.id === state.viewerPk ? reels : [undefined, ...reels]
			others.sort((left, right) => (right?.latest_reel_media ?? 0) - (left?.latest_reel_media ?? 0))
			const tray = [...(own ? [own] : []), ...others].flatMap((reel, index) => {
				if (!reel) return []
				const user = state.user(reel.id) as DemoUser
				return [
					{
						...reel,
						items: index < 4 ? reelOf(context, user, true)?.items : undefined,
						ranked_position: index + 1
					}
				]
			})
			return ok({
				tray,
				story_ranking_token: `smkit-${tray.length}`,
				has_new_nux_story: false,
				face_filter_nux_version: 4
			})
		}
	}
]
