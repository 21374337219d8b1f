/**
 * `ig.friendships`: followers, following, relationship status, mutual followers, pending requests,
 * and the follow/unfollow writes (docs/instagram.md, "Friendships"). Paging continues while `next_max_id` is
 * present: real answers often signal more pages only through `big_list` plus `next_max_id`.
 */
import { normalizeFriendshipStatus } from '../normalize/social'
import { normalizeUserShort } from '../normalize/user'
import { asArray, asObject, text } from '../normalize/values'
import { type ListOptions, type Page, paginate, paginateWhole } from '../pagination'
import type { FriendshipStatus, UserShort } from '../types'
import { ApiGroup, call, malformedAnswer, type RequestOptions, requirePk } from './base'

/** Largest page asked from Instagram for follower lists. */
const MAX_PAGE = 200

/** Paging options of a follower list, and a search within it. */
export interface FollowerListOptions extends ListOptions {
	/** Only followers whose username or full name contains this text. */
	query?: string
}

/** Relationships. */
export class Friendships extends ApiGroup {
	/**
	 * Followers: `GET /api/v1/friendships/{pk}/followers/?count=<n>[&max_id=][&query=]` [get_default].
	 * With `query`, only the followers whose username or full name contains it (the follower list's
	 * search box on the web).
	 */
	async getFollowers(userPk: string, options: FollowerListOptions = {}): Promise<Page<UserShort>> {
		return this.#userList('/api/v1/friendships/{pk}/followers/', requirePk('userPk', userPk), options)
	}

	/** Accounts the user follows: `GET /api/v1/friendships/{pk}/following/?count=<n>[&max_id=]` [get_default]. */
	async getFollowing(userPk: string, options: ListOptions = {}): Promise<Page<UserShort>> {
		return this.#userList('/api/v1/friendships/{pk}/following/', requirePk('userPk', userPk), options)
	}

	/**
	 * The viewer's relationship with a user: `GET /api/v1/friendships/show/{pk}/` [get_default], its
	 * flags at the top level. An answer without `following` is malformed (upstream_error), not a
	 * relationship whose every flag is false.
	 */
	async getStatus(userPk: string, options: RequestOptions = {}): Promise<FriendshipStatus> {
		const pk = requirePk('userPk', userPk)
		const body = await call(this.client, '/api/v1/friendships/show/{pk}/', {
			params: { pk },
			category: 'get_default',
			signal: options.signal
		})
		if (body.following === undefined || body.following === null)
			throw malformedAnswer(`GET /api/v1/friendships/show/${pk}/`, 'its friendship flags (following)')
		return normalizeFriendshipStatus(body, pk)
	}

	/** Followers of a user that the viewer follows: `GET /api/v1/friendships/{pk}/mutual_followers/` [get_default]. */
	async getMutualFollowers(userPk: string, options: ListOptions = {}): Promise<Page<UserShort>> {
		return this.#userList('/api/v1/friendships/{pk}/mutual_followers/', requirePk('userPk', userPk), options)
	}

	/**
	 * Follow requests the viewer received: `GET /api/v1/friendships/pending/` → `users[]` [get_default],
	 * in one piece: paged as likers are, so a cursor this list did not return is refused rather than
	 * sent upstream, where it would be ignored and bring the first requests back as the next ones.
	 */
	async getPendingRequests(options: ListOptions = {}): Promise<Page<UserShort>> {
		return paginateWhole(async () => {
			const body = await call(this.client, '/api/v1/friendships/pending/', {
				list: 'users',
				category: 'get_default',
				signal: options.signal
			})
			return asArray(body.users).map(normalizeUserShort)
		}, options)
	}

	/** Follows a user (a request for private accounts): `POST /api/v1/friendships/create/{pk}/` [post_follow]. */
	async follow(userPk: string, options: RequestOptions = {}): Promise<FriendshipStatus> {
		return this.#change('/api/v1/friendships/create/{pk}/', requirePk('userPk', userPk), options)
	}

	/** Unfollows a user (or withdraws a request): `POST /api/v1/friendships/destroy/{pk}/` [post_follow]. */
	async unfollow(userPk: string, options: RequestOptions = {}): Promise<FriendshipStatus> {
		return this.#change('/api/v1/friendships/destroy/{pk}/', requirePk('userPk', userPk), options)
	}

	async #userList(template: string, pk: string, options: FollowerListOptions): Promise<Page<UserShort>> {
		const search = options.query ? { query: options.query, search_surface: 'follow_list_page' } : {}
		return paginate(async (cursor, limit) => {
			const body = await call(this.client, template, {
				params: { pk },
				query: { count: Math.min(limit ?? 50, MAX_PAGE), max_id: cursor, ...search },
				list: 'users',
				category: 'get_default',
				signal: options.signal
			})
			return {
				items: asArray(body.users).map(normalizeUserShort),
				next_cursor: text(body.next_max_id) || null
			}
		}, options)
	}

	/** A follow or unfollow; its answer holds the new `friendship_status` (without it, malformed). */
	async #change(template: string, pk: string, options: RequestOptions): Promise<FriendshipStatus> {
		const body = await call(this.client, template, {
			method: 'POST',
			params: { pk },
			form: { user_id: pk, container_module: 'profile' },
			holds: 'friendship_status',
			category: 'post_follow',
			signal: options.signal
		})
		return normalizeFriendshipStatus(asObject(body.friendship_status), pk)
	}
}
