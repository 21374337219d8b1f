/**
 * `ig.account`: the viewer's own account, settings, blocked/restricted users, sessions
 * (docs/instagram.md, "Account").
 */
import { normalizeUser, normalizeUserShort } from '../normalize/user'
import { asArray, asObject, type Raw, text } from '../normalize/values'
import { type ListOptions, type Page, paginate } from '../pagination'
import type { RawObject, User, UserShort } from '../types'
import { ApiGroup, call, isFatal, malformedAnswer, type RequestOptions } from './base'
import { profileUser, userInfo } from './users'

/** An upstream object without the `status` marker every Instagram answer carries. */
function withoutStatus(body: Raw, endpoint: string): RawObject {
	const { status: _status, ...rest } = body
	// Nothing but the marker (`{"status":"ok"}`): not the settings asked for, nor settings all empty.
	if (Object.keys(rest).length === 0) throw malformedAnswer(endpoint, 'any settings')
	return rest
}

/** The logged-in account. */
export class Account extends ApiGroup {
	/**
	 * The viewer's profile: `GET /api/v1/accounts/current_user/?edit=true` → `user` [get_profile];
	 * fallbacks `GET /api/v1/users/{ds_user_id}/info/`, then `/accounts/account_information_settings/`.
	 * When none answers with the viewer, the first one's error: an answer without `user` is malformed
	 * (upstream_error), never a not_found (the logged-in account exists).
	 */
	async getCurrentUser(options: RequestOptions = {}): Promise<User> {
		let first: unknown
		try {
			const body = await call(this.client, '/api/v1/accounts/current_user/', {
				query: { edit: 'true' },
				holds: 'user',
				category: 'get_profile',
				signal: options.signal
			})
			return normalizeUser(
				profileUser(asObject(body.user), 'the current user', 'GET /api/v1/accounts/current_user/')
			)
		} catch (error) {
			if (isFatal(error)) throw error
			first = error
		}
		const viewer = this.client.transport.viewerPk ?? ''
		try {
			return normalizeUser(await userInfo(this.client, viewer, options.signal))
		} catch (error) {
			if (isFatal(error)) throw error
		}
		const settings = await this.getAccountInfo(options).catch((error: unknown) => {
			if (isFatal(error)) throw error
			throw first
		})
		const user = asObject(settings.user ?? settings)
		if (user.username) return normalizeUser({ pk: viewer, ...user })
		// The settings name no account either: the current user endpoint's error is the telling one.
		throw first
	}

	/** Account information settings (e-mail, phone, birthday...): `GET /api/v1/accounts/account_information_settings/`, passed through. */
	async getAccountInfo(options: RequestOptions = {}): Promise<RawObject> {
		return withoutStatus(
			await call(this.client, '/api/v1/accounts/account_information_settings/', {
				category: 'get_default',
				signal: options.signal
			}),
			'GET /api/v1/accounts/account_information_settings/'
		)
	}

	/**
	 * Users the viewer blocked: `GET /api/v1/users/blocked_list/[?max_id=]` →
	 * `blocked_list[{user_id, username}]`, paged by `next_max_id`.
	 */
	async getBlockedUsers(options: ListOptions = {}): Promise<Page<UserShort>> {
		return paginate(async (cursor) => {
			const body = await call(this.client, '/api/v1/users/blocked_list/', {
				query: { max_id: cursor },
				list: 'blocked_list',
				category: 'get_default',
				signal: options.signal
			})
			return {
				items: asArray(body.blocked_list).map((entry) => normalizeUserShort({ pk: entry.user_id, ...entry })),
				next_cursor: text(body.next_max_id) || null
			}
		}, options)
	}

	/** Users the viewer restricted: `GET /api/v1/restrict_action/restricted_users/[?max_id=]` → `users[]`, paged by `next_max_id`. */
	async getRestrictedUsers(options: ListOptions = {}): Promise<Page<UserShort>> {
		return paginate(async (cursor) => {
			const body = await call(this.client, '/api/v1/restrict_action/restricted_users/', {
				query: { max_id: cursor },
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

	/** Login sessions and suspicious logins: `GET /api/v1/session/login_activity/`, passed through. */
	async getLoginActivity(options: RequestOptions = {}): Promise<RawObject> {
		return withoutStatus(
			await call(this.client, '/api/v1/session/login_activity/', {
				category: 'get_default',
				signal: options.signal
			}),
			'GET /api/v1/session/login_activity/'
		)
	}

	/** Privacy and security settings: `GET /api/v1/accounts/privacy_and_security_info/`, passed through. */
	async getPrivacySettings(options: RequestOptions = {}): Promise<RawObject> {
		return withoutStatus(
			await call(this.client, '/api/v1/accounts/privacy_and_security_info/', {
				category: 'get_default',
				signal: options.signal
			}),
			'GET /api/v1/accounts/privacy_and_security_info/'
		)
	}
}
