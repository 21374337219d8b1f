/**
 * The viewer's account: current user, blocked and restricted accounts, login activity, privacy and
 * account information, plus the session plumbing: the warm-up `GET /web/fxcal/ig_sso_users/` (answers
 * `x-ig-set-www-claim` and a `server_revision`) and the refresh `POST /web/accounts/one_tap_web_login/`.
 */
import { decodeCursor, pageOf } from '../cursor'
import { fail, hasSession, ok, type Reply, type Route, type RouteContext } from '../http'
import { liveTime } from '../presets'
import { userInfo, userShort } from '../views-user'

/** The revision the warm-up reports; clients send it back as `x-instagram-ajax`. */
export const SERVER_REVISION = 1034642761
/** The claim the warm-up hands out; clients send it back as `x-ig-www-claim`. */
export const WWW_CLAIM = 'hmac.AR2smkitSimulatedInstagramWwwClaim0000000000000'

/** Accounts per page of the blocked and restricted lists (fixed, whatever the client asks). */
const BLOCKED_PAGE = 3
const RESTRICTED_PAGE = 2

/** One page of a viewer's list after `max_id`; `shape` builds the answer from the page. */
function pagedList(
	context: RouteContext,
	pks: readonly string[],
	kind: string,
	size: number,
	shape: (pks: string[], offset: number, nextMaxId: string | null) => Reply
): Reply {
	const offset = decodeCursor(kind, context.query.get('max_id'))
	if (offset === null) return fail(400, 'Invalid max_id')
	const { page, nextCursor } = pageOf(pks, kind, offset, size)
	return shape(page, offset, nextCursor)
}

/** Account routes. */
export const accountRoutes: readonly Route[] = [
	{
		method: 'GET',
		path: '/api/v1/accounts/current_user/',
		access: 'session',
		handle(context) {
			const { account } = context.state.data.viewer
			return ok({
				user: {
					...userInfo(context, context.state.viewer),
					email: account.email,
					phone_number: account.phoneNumber,
					gender: account.gender,
					birthday: account.birthday,
					is_email_confirmed: true,
					is_phone_confirmed: true,
					trusted_username: context.state.viewer.username,
					trust_days: 14
				}
			})
		}
	},
	{
		method: 'GET',
		path: '/api/v1/users/blocked_list/',
		access: 'session',
		handle: (context) =>
			pagedList(context, context.state.data.graph.blocked, 'blocked', BLOCKED_PAGE, (pks, offset, next) => {
				const blocked = pks.flatMap((pk, index) => {
					const user = context.state.user(pk)
					if (!user) return []
					const short = userShort(context, user)
					return [
						{
							user_id: user.pk,
							username: user.username,
							full_name: user.fullName,
							profile_pic_url: short.profile_pic_url,
							block_at: context.state.data.viewer.account.dateJoined + (offset + index) * 86400 * 40
						}
					]
				})
				return ok({ blocked_list: blocked, next_max_id: next, page_size: BLOCKED_PAGE })
			})
	},
	{
		method: 'GET',
		path: '/api/v1/restrict_action/restricted_users/',
		access: 'session',
		handle: (context) =>
			pagedList(
				context,
				context.state.data.graph.restricted,
				'restricted',
				RESTRICTED_PAGE,
				(pks, _, next) => {
					const users = pks.flatMap((pk) => context.state.user(pk) ?? [])
					return ok({ users: users.map((user) => userShort(context, user)), next_max_id: next })
				}
			)
	},
	{
		method: 'GET',
		path: '/api/v1/session/login_activity/',
		access: 'session',
		handle(context) {
			const sessions = context.state.data.viewer.loginSessions.map((session) => ({
				id: session.id,
				login_id: session.id,
				device: session.device,
				location: session.location,
				latitude: session.latitude,
				longitude: session.longitude,
				timestamp: liveTime(session.timestamp, context.now),
				login_timestamp: liveTime(session.timestamp, context.now),
				is_current: session.isCurrent
			}))
			return ok({ sessions, suspicious_logins: [] })
		}
	},
	{
		method: 'GET',
		path: '/api/v1/accounts/privacy_and_security_info/',
		access: 'session',
		handle(context) {
			const { account } = context.state.data.viewer
			return ok({
				is_private: context.state.viewer.isPrivate,
				show_activity_status: account.showActivityStatus,
				presence_disabled: !account.showActivityStatus,
				allow_story_reshare: account.allowStoryReshare,
				hide_like_and_view_counts: account.hideLikeCounts,
				two_factor_enabled: account.twoFactorEnabled,
				allow_comments_from: account.allowCommentsFrom,
				allow_tags_from: account.allowTagsFrom,
				allow_mentions_from: account.allowMentionsFrom,
				message_requests_from: account.messageRequestsFrom,
				blocked_count: context.state.data.graph.blocked.length,
				restricted_count: context.state.data.graph.restricted.length,
				close_friends_count: context.state.data.graph.closeFriends.length
			})
		}
	},
	{
		method: 'GET',
		path: '/api/v1/accounts/account_information_settings/',
		access: 'session',
		handle(context) {
			const { account } = context.state.data.viewer
			const viewer = context.state.viewer
			return ok({
				pk: viewer.pk,
				username: viewer.username,
				full_name: viewer.fullName,
				email: account.email,
				phone_number: account.phoneNumber,
				birthday: account.birthday,
				gender: account.gender,
				date_joined: account.dateJoined,
				country_code: account.country,
				account_type: 'personal',
				is_private: viewer.isPrivate
			})
		}
	},
	{
		method: 'GET',
		path: '/api/v1/web/fxcal/ig_sso_users/',
		access: 'public',
		handle: () => ({
			status: 200,
			body: { server_revision: SERVER_REVISION, status: 'ok' },
			headers: { 'x-ig-set-www-claim': WWW_CLAIM }
		})
	},
	{
		method: 'POST',
		path: '/api/v1/web/accounts/one_tap_web_login/',
		access: 'public',
		handle(context) {
			// The refresh only succeeds for the session the simulator already accepts.
			if (hasSession(context.request) && context.form.get('user_id') === context.state.viewerPk) {
				return ok({ authenticated: true, userId: context.state.viewerPk })
			}
			const reply = fail(400, 'login_required', { require_login: true })
			return {
				...reply,
				headers: {
					'set-cookie': 'sessionid=delete; expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/'
				}
			}
		}
	}
]
