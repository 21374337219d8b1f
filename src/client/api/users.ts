/**
 * `ig.users`: profiles by username or pk, user search, full profiles and bio parsing
 * (docs/instagram.md, "Users").
 */
import { parseBioText } from '../bio'
import { IgApiError } from '../errors'
import { toId } from '../json'
import { mergeUsers, normalizeUser, normalizeUserShort } from '../normalize/user'
import { asArray, asObject, type Raw } from '../normalize/values'
import { type ListOptions, type Page, paginateWhole } from '../pagination'
import type { FullProfile, ParsedBio, User, UserShort } from '../types'
import {
	ApiGroup,
	type ClientContext,
	call,
	isFatal,
	notFound,
	queryHash,
	type RequestOptions,
	requirePk,
	requireText,
	requireUsername
} from './base'

/** Legacy GraphQL profile query (by id or username). */
export const PROFILE_QUERY_HASH = 'c9100bf9110dd6361671f113dd02e7d6'

/**
 * A profile answer's user, which must carry its id and its username: every other call addresses a
 * user by its id, and a profile without them is an answer Instagram did not mean (`upstream_error`),
 * not a user of an empty name and zero followers.
 */
export function profileUser(user: Raw, what: string, endpoint: string): Raw {
	const missing =
		toId(user.pk ?? user.pk_id ?? user.id ?? user.user_id) === ''
			? 'id'
			: typeof user.username !== 'string' || user.username === ''
				? 'username'
				: null
	if (missing === null) return user
	throw new IgApiError('upstream_error', `Instagram answered ${what} without its ${missing} (${endpoint})`, {
		upstreamStatus: 200,
		endpoint
	})
}

/**
 * web_profile_info for a username: the raw `data.user`. Throws not_found when it is null (a 404 is
 * one already), upstream_error when the answer has no `data.user` at all (malformed).
 */
export async function webProfileInfo(client: ClientContext, username: string, signal?: AbortSignal) {
	const body = await call(client, '/api/v1/users/web_profile_info/', {
		query: { username },
		holds: 'data.user?',
		category: 'get_profile',
		signal
	})
	const user = asObject(body.data).user
	if (!user) throw notFound(`User @${username}`, 'GET /api/v1/users/web_profile_info/')
	return profileUser(asObject(user), `the profile of @${username}`, 'GET /api/v1/users/web_profile_info/')
}

/** `/users/{pk}/info/`: the raw `user` (not_found when null, upstream_error when missing). */
export async function userInfo(client: ClientContext, userPk: string, signal?: AbortSignal) {
	const body = await call(client, '/api/v1/users/{pk}/info/', {
		params: { pk: userPk },
		holds: 'user?',
		category: 'get_profile',
		signal
	})
	if (!body.user) throw notFound(`User ${userPk}`, 'GET /api/v1/users/{pk}/info/')
	return profileUser(asObject(body.user), `the profile of user ${userPk}`, 'GET /api/v1/users/{pk}/info/')
}

/** User lookups. */
export class Users extends ApiGroup {
	/** Profile by username: `GET /api/v1/users/web_profile_info/?username=` [get_profile]. */
	async getByUsername(username: string, options: RequestOptions = {}): Promise<User> {
		return normalizeUser(await webProfileInfo(this.client, requireUsername(username), options.signal))
	}

	/**
	 * Profile by pk: the GraphQL profile query first; when it fails or has no `username`,
	 * `GET /api/v1/users/{pk}/info/` [get_profile].
	 */
	async getById(userPk: string, options: RequestOptions = {}): Promise<User> {
		const pk = requirePk('userPk', userPk)
		try {
			const data = await queryHash(
				this.client,
				PROFILE_QUERY_HASH,
				{ id: pk, render_surface: 'PROFILE' },
				{
					category: 'get_profile',
					signal: options.signal
				}
			)
			const user = asObject(data.user)
			if (typeof user.username === 'string' && user.username)
				return normalizeUser({ ...user, id: user.id ?? pk })
		} catch (error) {
			if (isFatal(error)) throw error
		}
		return normalizeUser(await userInfo(this.client, pk, options.signal))
	}

	/**
	 * Users matching `query`: `GET /api/v1/web/search/topsearch/?context=blended` [get_search]. A single
	 * word is also looked up as an exact username first (web_profile_info), which then leads the list.
	 */
	async search(query: string, options: ListOptions = {}): Promise<Page<UserShort>> {
		const text = requireText('query', query, 200)
		return paginateWhole(async () => {
			const users: UserShort[] = []
			if (/^@?[A-Za-z0-9._]{1,30}$/.test(text)) {
				try {
					users.push(
						normalizeUserShort(
							await webProfileInfo(this.client, text.replace(/^@/, '').toLowerCase(), options.signal)
						)
					)
				} catch (error) {
					if (isFatal(error)) throw error
				}
			}
			const body = await call(this.client, '/api/v1/web/search/topsearch/', {
				query: { query: text, context: 'blended' },
				list: 'users',
				category: 'get_search',
				signal: options.signal
			})
			for (const entry of asArray(body.users)) {
				const user = normalizeUserShort(entry.user)
				if (user.pk && !users.some((known) => known.pk === user.pk)) users.push(user)
			}
			return users
		}, options)
	}

	/**
	 * Everything known about a user: web_profile_info, then `/users/{pk}/info/` (contact details,
	 * mutual followers; web values win), then bio parsing. `sources` lists the endpoints that answered.
	 */
	async getFullProfile(username: string, options: RequestOptions = {}): Promise<FullProfile> {
		const web = normalizeUser(await webProfileInfo(this.client, requireUsername(username), options.signal))
		const sources = ['web_profile_info']
		let info: User | undefined
		try {
			info = normalizeUser(await userInfo(this.client, web.pk, options.signal))
			sources.push('user_info')
		} catch (error) {
			if (isFatal(error)) throw error
		}
		const user = mergeUsers(web, info) as User
		return { ...user, ...parseBioText(user.biography), sources }
	}

	/** Mentions, hashtags, URLs, e-mails, phones, links and entities of a user's biography. */
	async parseBio(username: string, options: RequestOptions = {}): Promise<ParsedBio> {
		const user = await this.getByUsername(username, options)
		return {
			pk: user.pk,
			username: user.username,
			biography: user.biography,
			...parseBioText(user.biography),
			bio_links: user.bio_links,
			bio_entities: user.bio_entities
		}
	}
}
