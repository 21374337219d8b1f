/** Lookups the route groups share: accounts and posts by path parameter, visibility checks, search. */
import type { DemoMedia, DemoUser } from '../dataset-types'
import { mediaNotFound, notAuthorized, type Reply, type RouteContext, userNotFound } from '../http'

/** True when a value is a {@link Reply} (a failure to return) rather than the looked-up record. */
export function isReply(value: unknown): value is Reply {
	return typeof value === 'object' && value !== null && 'status' in value && 'body' in value
}

/** The account a `:pk` parameter names, or 404 "User not found". */
export function userParam(context: RouteContext, name = 'pk'): DemoUser | Reply {
	const pk = context.params[name] ?? ''
	return (/^\d{1,20}$/.test(pk) && context.state.user(pk)) || userNotFound()
}

/** Like {@link userParam}, but a private account the viewer does not follow answers 400 "Not authorized". */
export function visibleUserParam(context: RouteContext, name = 'pk'): DemoUser | Reply {
	const user = userParam(context, name)
	if (isReply(user)) return user
	return context.state.canView(context.viewerPk, user.pk) ? user : notAuthorized()
}

/**
 * The post a `:pk` parameter names (a pk or a `"<pk>_<owner>"` id). Unknown posts, and posts of private
 * accounts the viewer does not follow, answer 404 "Media not found or unavailable".
 */
export function mediaParam(context: RouteContext, name = 'pk'): DemoMedia | Reply {
	const value = context.params[name] ?? ''
	if (!/^\d{1,20}(_\d{1,20})?$/.test(value)) return mediaNotFound()
	const media = context.state.media(value)
	if (!media || !context.state.canView(context.viewerPk, media.ownerPk)) return mediaNotFound()
	return media
}

/** Lower-case text without accents, for matching search queries. */
export function searchable(text: string): string {
	return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

/** Accounts matching a query: exact username, then username prefix, then contained, then full name. */
export function searchUsers(context: RouteContext, query: string, limit: number): DemoUser[] {
	const needle = searchable(query.trim().replace(/^@/, ''))
	if (needle === '') return []
	const scored: { user: DemoUser; score: number }[] = []
	for (const user of context.state.data.users) {
		const username = user.username
		const score =
			username === needle
				? 0
				: username.startsWith(needle)
					? 1
					: username.includes(needle)
						? 2
						: searchable(user.fullName).includes(needle)
							? 3
							: -1
		if (score >= 0) scored.push({ user, score: score - (user.isVerified ? 0.5 : 0) })
	}
	return scored
		.sort((left, right) => left.score - right.score)
		.slice(0, limit)
		.map((entry) => entry.user)
}

/** `1234567` → `1.2M`, like Instagram's `formatted_media_count`. */
export function formatCount(count: number): string {
	if (count >= 1_000_000) return `${(count / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`
	if (count >= 1_000) return `${(count / 1_000).toFixed(1).replace(/\.0$/, '')}K`
	return String(count)
}
