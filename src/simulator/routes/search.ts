/**
 * Search and explore: `/web/search/topsearch/` (context blended or user), `/tags/search/`,
 * `/fbsearch/places/`, `/discover/topical_explore/` (paged with max_id; the most-liked posts of
 * accounts the viewer does not follow, 10 pages of 24) and `/tags/{tag}/info/`.
 */
import { decodeCursor, pageOf } from '../cursor'
import type { DemoHashtag, DemoPlace } from '../dataset-types'
import { fail, ok, type Route, type RouteContext } from '../http'
import { locationView, mediaItem } from '../views-media'
import { userShort } from '../views-user'
import { formatCount, searchable, searchUsers } from './common'

/** Posts per explore page, and how many pages the explore grid has before it ends. */
const EXPLORE_PAGE = 24
const EXPLORE_PAGES = 10

function matchingHashtags(context: RouteContext, query: string, limit: number): DemoHashtag[] {
	const needle = searchable(query.trim().replace(/^#/, ''))
	if (needle === '') return []
	const count = (tag: DemoHashtag) => context.state.postsTagged(tag.name).length
	return [...context.state.data.hashtags.values()]
		.filter((tag) => tag.name.includes(needle))
		.sort(
			(left, right) =>
				Number(right.name.startsWith(needle)) - Number(left.name.startsWith(needle)) ||
				count(right) - count(left)
		)
		.slice(0, limit)
}

function matchingPlaces(context: RouteContext, query: string, limit: number): DemoPlace[] {
	const needle = searchable(query.trim())
	if (needle === '') return []
	return context.state.data.places
		.filter((place) => searchable(`${place.name} ${place.city} ${place.address}`).includes(needle))
		.slice(0, limit)
}

/** A hashtag as search results carry it. */
function hashtagResult(context: RouteContext, tag: DemoHashtag) {
	const mediaCount = context.state.postsTagged(tag.name).length
	return {
		id: tag.id,
		name: tag.name,
		media_count: mediaCount,
		formatted_media_count: formatCount(mediaCount),
		search_result_subtitle: `${formatCount(mediaCount)} posts`,
		following: 0,
		follow_status: 0,
		allow_following: true,
		profile_pic_url: ''
	}
}

const placeResult = (place: DemoPlace) => ({
	title: place.name,
	subtitle: place.address || place.city,
	location: locationView(place)
})
const rankToken = (query: string) => `${searchable(query).length}_smkit-rank-token`

/** Search and explore routes. */
export const searchRoutes: readonly Route[] = [
	{
		method: 'GET',
		path: '/api/v1/web/search/topsearch/',
		access: 'session',
		handle(context) {
			const query = context.query.get('query') ?? ''
			const usersOnly = context.query.get('context') === 'user'
			const users = searchUsers(context, query, 30).map((user, position) => ({
				position,
				user: userShort(context, user)
			}))
			const hashtags = usersOnly
				? []
				: matchingHashtags(context, query, 15).map((tag, index) => ({
						position: users.length + index,
						hashtag: hashtagResult(context, tag)
					}))
			const places = usersOnly
				? []
				: matchingPlaces(context, query, 10).map((place, index) => ({
						position: users.length + hashtags.length + index,
						place: placeResult(place)
					}))
			return ok({
				users,
				hashtags,
				places,
				has_more: false,
				rank_token: rankToken(query),
				clear_client_cache: false
			})
		}
	},
	{
		method: 'GET',
		path: '/api/v1/tags/search/',
		access: 'session',
		handle(context) {
			const query = context.query.get('q') ?? ''
			const results = matchingHashtags(context, query, 30).map((tag) => hashtagResult(context, tag))
			return ok({ results, has_more: false, rank_token: rankToken(query) })
		}
	},
	{
		method: 'GET',
		path: '/api/v1/fbsearch/places/',
		access: 'session',
		handle(context) {
			const query = context.query.get('query') ?? ''
			return ok({
				items: matchingPlaces(context, query, 20).map(placeResult),
				has_more: false,
				rank_token: rankToken(query)
			})
		}
	},
	{
		method: 'GET',
		path: '/api/v1/discover/topical_explore/',
		access: 'session',
		handle(context) {
			const offset = decodeCursor('explore', context.query.get('max_id'))
			if (offset === null) return fail(400, 'Invalid max_id')
			const { state } = context
			const pool = state
				.allMedia()
				.filter(
					(media) =>
						media.ownerPk !== state.viewerPk &&
						!state.isFollowing(media.ownerPk) &&
						state.canView(null, media.ownerPk)
				)
				.sort((left, right) => right.likerCount - left.likerCount || (right.pk > left.pk ? 1 : -1))
				.slice(0, EXPLORE_PAGE * EXPLORE_PAGES)
			const { page, nextCursor } = pageOf(pool, 'explore', offset, EXPLORE_PAGE)
			const sectionalItems = []
			for (let index = 0; index < page.length; index += 3) {
				sectionalItems.push({
					layout_type: 'media_grid',
					feed_type: 'media',
					layout_content: {
						medias: page.slice(index, index + 3).map((media) => ({ media: mediaItem(context, media) }))
					},
					explore_item_info: { num_columns: 3, total_num_columns: 3, aspect_ratio: 1, autoplay: false }
				})
			}
			return ok({
				sectional_items: sectionalItems,
				clusters: [{ id: 'explore_all:0', title: 'For you', context: 'explore_all', type: 'explore_all' }],
				more_available: nextCursor !== null,
				next_max_id: nextCursor ?? undefined,
				max_id: context.query.get('max_id') ?? undefined,
				rank_token: rankToken('explore')
			})
		}
	},
	{
		method: 'GET',
		path: '/api/v1/tags/:tag/info/',
		access: 'session',
		handle(context) {
			const tag = context.state.data.hashtags.get((context.params.tag ?? '').replace(/^#/, '').toLowerCase())
			if (!tag) return fail(404, 'Hashtag not found')
			const mediaCount = context.state.postsTagged(tag.name).length
			return ok({
				id: tag.id,
				name: tag.name,
				media_count: mediaCount,
				formatted_media_count: formatCount(mediaCount),
				following: 0,
				follow_status: 0,
				allow_following: true,
				allow_muting_story: true,
				profile_pic_url: '',
				non_violating: 1,
				is_trending: false,
				subtitle: `${formatCount(mediaCount)} posts`
			})
		}
	}
]
