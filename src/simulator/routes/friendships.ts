/**
 * Friendships: follower and following lists (count, max_id; `next_max_id` while more pages remain, with
 * Instagram's quirk `has_more: false` and `big_list`), `/friendships/show/{pk}/`, mutual followers,
 * pending requests, and the writes follow/unfollow under the app paths (`/friendships/create/{pk}/`,
 * `/friendships/destroy/{pk}/`) and the web paths (`/web/friendships/{pk}/follow/`, `.../unfollow/`).
 */
import { decodeCursor, pageOf, pageSize } from '../cursor'
import type { DemoUser } from '../dataset-types'
import { fail, ok, type Reply, type Route, type RouteContext } from '../http'
import { friendshipStatus, mutualFollowers, userShort } from '../views-user'
import { isReply, searchable, userParam, visibleUserParam } from './common'

/** The largest page a follower list serves. */
const MAX_LIST_PAGE = 200

/** One page of a list of accounts, shaped like Instagram's follower lists. */
function userList(context: RouteContext, pks: readonly string[], kind: string, defaultSize: number): Reply {
	const offset = decodeCursor(kind, context.query.get('max_id'))
	if (offset === null) return fail(400, 'Invalid max_id')
	const size = pageSize(context.query.get('count'), defaultSize, MAX_LIST_PAGE)
	const filter = searchable(context.query.get('query') ?? '')
	let users = pks.flatMap((pk) => context.state.user(pk) ?? [])
	if (filter !== '') {
		users = users.filter(
			(user) => user.username.includes(filter) || searchable(user.fullName).includes(filter)
		)
	}
	const { page, nextCursor } = pageOf(users, kind, offset, size)
	return ok({
		users: page.map((user) => userShort(context, user)),
		big_list: nextCursor !== null,
		page_size: size,
		next_max_id: nextCursor ?? undefined,
		// Instagram's own quirk: has_more stays false; clients page while next_max_id is present.
		has_more: false,
		should_limit_list_of_followers: false,
		use_clickable_see_more: false,
		show_spam_follow_request_tab: false
	})
}

function listRoute(
	path: string,
	list: (context: RouteContext, user: DemoUser) => readonly string[],
	kind: string
): Route {
	return {
		method: 'GET',
		path,
		access: 'session',
		handle(context) {
			const user = visibleUserParam(context)
			return isReply(user) ? user : userList(context, list(context, user), `${kind}-${user.pk}`, 25)
		}
	}
}

/** Validates the target of a follow or unfollow. */
function followTarget(context: RouteContext): DemoUser | Reply {
	const user = userParam(context)
	if (isReply(user)) return user
	if (user.pk === context.state.viewerPk) return fail(400, 'You cannot follow yourself.')
	return user
}

function followRoute(path: string, follow: boolean, webShape: boolean): Route {
	return {
		method: 'POST',
		path,
		access: 'session',
		handle(context) {
			const user = followTarget(context)
			if (isReply(user)) return user
			const previousFollowing = context.state.isFollowing(user.pk)
			if (follow) {
				const result = context.state.follow(user.pk)
				if (webShape) return ok({ result })
			} else {
				context.state.unfollow(user.pk)
				if (webShape) return ok({})
			}
			return ok({ friendship_status: friendshipStatus(context, user), previous_following: previousFollowing })
		}
	}
}

/** Friendship routes, reads and writes. */
export const friendshipsRoutes: readonly Route[] = [
	listRoute(
		'/api/v1/friendships/:pk/followers/',
		(context, user) => context.state.followersOf(user.pk),
		'followers'
	),
	listRoute(
		'/api/v1/friendships/:pk/following/',
		(context, user) => context.state.followingOf(user.pk),
		'following'
	),
	listRoute(
		'/api/v1/friendships/:pk/mutual_followers/',
		(context, user) => mutualFollowers(context, user.pk),
		'mutual'
	),
	{
		method: 'GET',
		path: '/api/v1/friendships/show/:pk/',
		access: 'session',
		handle(context) {
			const user = userParam(context)
			return isReply(user) ? user : ok(friendshipStatus(context, user))
		}
	},
	{
		method: 'GET',
		path: '/api/v1/friendships/pending/',
		access: 'session',
		handle(context) {
			const users = context.state.data.graph.pendingRequests.flatMap((pk) => context.state.user(pk) ?? [])
			return ok({
				users: users.map((user) => userShort(context, user)),
				big_list: false,
				page_size: 200,
				next_max_id: null,
				truncate_follow_requests_at_index: -1
			})
		}
	},
	followRoute('/api/v1/friendships/create/:pk/', true, false),
	followRoute('/api/v1/friendships/destroy/:pk/', false, false),
	followRoute('/api/v1/web/friendships/:pk/follow/', true, true),
	followRoute('/api/v1/web/friendships/:pk/unfollow/', false, true)
]
