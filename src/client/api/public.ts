/**
 * `ig.public`: profiles and posts without logging in (docs/instagram.md, "Public (anonymous)"). Requests
 * are anonymous:
 * no cookie is ever sent, redirects are followed, and each strategy has its own budget. Strategies
 * run in order; a later one also runs when an earlier one answers without the data.
 */
import { IgApiError, IgError, IgNetworkError, IgTimeoutError } from '../errors'
import { normalizeGraphMedia, normalizeMedia } from '../normalize/media'
import { normalizeUser, normalizeUserShort } from '../normalize/user'
import { asArray, asObject, count, flag, type Raw, text } from '../normalize/values'
import { foreignCursor, type ListOptions, type Page, paginate } from '../pagination'
import type { Media, PageData, PublicProfile } from '../types'
import { ApiGroup, call, queryHash, type RequestOptions, requireUsername } from './base'
import { parseProfileHtml } from './public-html'
import { PROFILE_QUERY_HASH } from './users'

const POSTS_QUERY_HASH = '69cba40317214236af40e7efa697781d'
type Source = PublicProfile['source']
type Found = { user: Raw; source: Source }

/** Instagram could not be reached at all: the next strategy would hit the same wall, so stop. */
function isTransportFailure(error: IgError): boolean {
	return error instanceof IgNetworkError || error instanceof IgTimeoutError
}

/** The most telling of the strategies' errors: not_found, then rate_limited, then the first. */
function strategiesFailed(username: string, errors: unknown[]): unknown {
	const clientErrors = errors.filter((error): error is IgError => error instanceof IgError)
	const foreign = errors.find((error) => !(error instanceof IgError))
	if (foreign) return foreign
	return (
		clientErrors.find((error) => error.kind === 'not_found') ??
		clientErrors.find((error) => error.kind === 'rate_limited') ??
		clientErrors[0] ??
		new IgApiError(
			'not_found',
			`Public profile @${username} not found (every anonymous strategy came back empty)`,
			{
				upstreamStatus: 200,
				endpoint: `GET /${username}/`
			}
		)
	)
}

/** Posts of a GraphQL user object (`edge_owner_to_timeline_media`). */
function timelinePage(user: Raw): PageData<Media> & { hasMore: boolean } {
	const timeline = asObject(user.edge_owner_to_timeline_media)
	const owner = normalizeUserShort({ ...user, pk: user.id ?? user.pk })
	const pageInfo = asObject(timeline.page_info)
	const cursor = text(pageInfo.end_cursor)
	return {
		items: asArray(timeline.edges).map((edge) => normalizeGraphMedia(edge.node, owner)),
		next_cursor: flag(pageInfo.has_next_page) && cursor ? cursor : null,
		hasMore: flag(pageInfo.has_next_page)
	}
}

/** Which source serves a later page of public posts: the GraphQL timeline query or the mobile feed. */
type PostsSource = 'q' | 'm'

/**
 * The cursor of a later page of public posts: the source, the account (username and id) and the
 * source's own cursor. The account is in it because the sources page by user id alone: another
 * account's cursor would otherwise bring that account's posts back as this one's.
 */
function postsCursor(source: PostsSource, username: string, userId: string, upstream: string): string {
	return `${source}:${username}:${userId}:${upstream}`
}

/** What a public posts cursor names; refuses one made for another account or by another list. */
function readPostsCursor(
	cursor: string,
	username: string
): { source: PostsSource; userId: string; upstream: string } {
	const match = /^([qm]):([a-z0-9._]{1,30}):(\d{1,30}):(.+)$/s.exec(cursor)
	if (!match || match[2] !== username) throw foreignCursor()
	return { source: match[1] as PostsSource, userId: match[3] as string, upstream: match[4] as string }
}

/** Anonymous access. */
export class Public extends ApiGroup {
	/**
	 * A profile without login: web_profile_info (web app id), then the GraphQL profile query, then
	 * the HTML page. Includes up to 12 recent posts when the source lists them.
	 */
	async getProfile(username: string, options: RequestOptions = {}): Promise<PublicProfile> {
		const { user, source } = await this.#findProfile(requireUsername(username), options.signal)
		return { ...normalizeUser(user), recent_posts: timelinePage(user).items, source }
	}

	/**
	 * A user's posts without login. First page: web_profile_info edges, the HTML page, the GraphQL
	 * timeline query (`first`/`after`), then the mobile feed (`i.instagram.com`, mobile app id).
	 * Later pages continue with the GraphQL query or the mobile feed, whichever served the page.
	 */
	async getPosts(username: string, options: ListOptions = {}): Promise<Page<Media>> {
		const name = requireUsername(username)
		return paginate(async (cursor, limit) => {
			const size = Math.min(limit ?? 12, 50)
			if (!cursor) return this.#firstPostsPage(name, size, options.signal)
			const { source, userId, upstream } = readPostsCursor(cursor, name)
			return source === 'q'
				? this.#graphqlPosts(name, userId, size, upstream, options.signal)
				: this.#mobilePosts(name, userId, size, upstream, options.signal)
		}, options)
	}

	async #firstPostsPage(username: string, size: number, signal?: AbortSignal): Promise<PageData<Media>> {
		const errors: unknown[] = []
		let user: Raw | undefined
		try {
			user = (await this.#findProfile(username, signal, ['web_profile_info', 'html'])).user
		} catch (error) {
			errors.push(error)
		}
		const userId = text(user?.id ?? user?.pk)
		if (!user || !userId) throw strategiesFailed(username, errors)
		const page = timelinePage(user)
		if (page.items.length)
			return {
				items: page.items,
				next_cursor: page.next_cursor ? postsCursor('q', username, userId, page.next_cursor) : null
			}
		if (flag(user.is_private))
			throw new IgApiError('private_account', `@${username} is private: its posts are not public`, {
				upstreamStatus: 200,
				endpoint: 'GET /api/v1/users/web_profile_info/'
			})
		const known = asObject(user.edge_owner_to_timeline_media).count ?? user.media_count
		if (known !== undefined && count(known) === 0) return { items: [], next_cursor: null }
		// The profile listed no posts although it has some: the GraphQL fallback runs on empty results too.
		for (const strategy of [
			() => this.#graphqlPosts(username, userId, size, '', signal),
			() => this.#mobilePosts(username, userId, size, '', signal)
		]) {
			try {
				const next = await strategy()
				if (next.items.length) return next
			} catch (error) {
				if (!(error instanceof IgError) || isTransportFailure(error)) throw error
				errors.push(error)
			}
		}
		if (errors.length) throw strategiesFailed(username, errors)
		return { items: [], next_cursor: null }
	}

	async #graphqlPosts(
		username: string,
		userId: string,
		size: number,
		after: string,
		signal?: AbortSignal
	): Promise<PageData<Media>> {
		const variables = after ? { id: userId, first: size, after } : { id: userId, first: size }
		const data = await queryHash(this.client, POSTS_QUERY_HASH, variables, {
			list: 'user.edge_owner_to_timeline_media.edges',
			category: 'public_graphql',
			anonymous: 'web',
			signal
		})
		// The query answers `user` with its posts only: the owner's username comes from the request, so
		// these posts name their owner as the first page's do.
		const page = timelinePage({ id: userId, username, ...asObject(data.user) })
		return {
			items: page.items,
			next_cursor: page.next_cursor ? postsCursor('q', username, userId, page.next_cursor) : null
		}
	}

	async #mobilePosts(
		username: string,
		userId: string,
		size: number,
		maxId: string,
		signal?: AbortSignal
	): Promise<PageData<Media>> {
		const body = await call(this.client, '/api/v1/feed/user/{pk}/', {
			params: { pk: userId },
			query: { count: Math.min(size, 33), max_id: maxId || undefined },
			list: 'items',
			category: 'public_mobile_api',
			anonymous: 'mobile',
			signal
		})
		const next = text(body.next_max_id)
		return {
			items: asArray(body.items).map(normalizeMedia),
			next_cursor: flag(body.more_available) && next ? postsCursor('m', username, userId, next) : null
		}
	}

	/**
	 * Runs the profile strategies in order; the first answer with a username or follower count wins.
	 * A null user is an empty answer; an answer without one at all is malformed, an error of its own.
	 */
	async #findProfile(username: string, signal?: AbortSignal, only?: Source[]): Promise<Found> {
		const strategies: [Source, () => Promise<Raw | undefined>][] = [
			[
				'web_profile_info',
				async () =>
					asObject(
						asObject(
							(
								await call(this.client, '/api/v1/users/web_profile_info/', {
									query: { username },
									holds: 'data.user?',
									category: 'public_web_api',
									anonymous: 'web',
									signal
								})
							).data
						).user
					)
			],
			[
				'graphql',
				async () =>
					asObject(
						(
							await queryHash(
								this.client,
								PROFILE_QUERY_HASH,
								{ username },
								{ holds: 'user?', category: 'public_graphql', anonymous: 'web', signal }
							)
						).user
					)
			],
			['html', async () => this.#htmlProfile(username, signal)]
		]
		const errors: unknown[] = []
		for (const [source, run] of strategies) {
			if (only && !only.includes(source)) continue
			try {
				const user = await run()
				// Without its id a profile is no answer (every later call needs the pk): a page cut short
				// yields names and counts but no id, and must not pass for a profile with pk ''.
				const named =
					user && (text(user.username) || user.edge_followed_by || user.follower_count !== undefined)
				if (user && named && text(user.id ?? user.pk)) return { user, source }
			} catch (error) {
				if (!(error instanceof IgError) || isTransportFailure(error)) throw error
				errors.push(error)
			}
		}
		throw strategiesFailed(username, errors)
	}

	async #htmlProfile(username: string, signal?: AbortSignal): Promise<Raw | undefined> {
		const page = await call(this.client, '/{username}/', {
			params: { username },
			category: 'public_html',
			anonymous: 'html',
			expect: 'text',
			signal
		})
		const result = parseProfileHtml(text(page.text), username)
		if (result.kind === 'login_wall')
			throw new IgApiError(
				'upstream_error',
				`Instagram showed a login wall to anonymous access (GET /${username}/)`,
				{ upstreamStatus: 200, endpoint: `GET /${username}/` }
			)
		return result.kind === 'profile' ? result.user : undefined
	}
}
