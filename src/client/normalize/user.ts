/**
 * User normalisation (docs/instagram.md, "Users"). web_profile_info (GraphQL-style keys such as
 * `edge_followed_by`) and `/users/{pk}/info/` (REST keys such as `follower_count`) become one `User`.
 */
import { bioEntities, bioLinks } from '../bio'
import { toId } from '../json'
import type { User, UserRef, UserShort } from '../types'
import {
	asArray,
	asObject,
	countOrNull,
	flag,
	flagOrNull,
	idOrNull,
	type Raw,
	text,
	textOrNull
} from './values'

/** The short user record (lists, media owners, search results). */
export function normalizeUserShort(value: unknown): UserShort {
	const raw = asObject(value)
	return {
		pk: toId(raw.pk ?? raw.pk_id ?? raw.id ?? raw.user_id),
		username: text(raw.username),
		full_name: text(raw.full_name),
		is_private: flag(raw.is_private),
		is_verified: flag(raw.is_verified),
		profile_pic_url: text(raw.profile_pic_url)
	}
}

/** `{pk, username}` of a user mentioned inside another record. */
export function normalizeUserRef(value: unknown): UserRef {
	const raw = asObject(value)
	return { pk: toId(raw.pk ?? raw.pk_id ?? raw.id), username: text(raw.username) }
}

/** Business address from web_profile_info's JSON-in-a-string `business_address_json`. */
function businessAddress(raw: Raw): { city: string | null; address: string | null } {
	try {
		const parsed = asObject(JSON.parse(text(raw.business_address_json, '{}')))
		return { city: textOrNull(parsed.city_name), address: textOrNull(parsed.street_address) }
	} catch {
		return { city: null, address: null }
	}
}

/**
 * Users normalised from an answer without one of their counts (followers, following, posts), which
 * `User` holds as 0 all the same: see `countsGiven`.
 */
const withoutCounts = new WeakSet<User>()

/**
 * Whether Instagram gave `user`'s follower, following and post counts (`normalizeUser`'s result):
 * false when the answer lacked one, which the user holds as 0. A caller that stores counts (a
 * watch) must not take such a 0 for Instagram's.
 */
export function countsGiven(user: User): boolean {
	return !withoutCounts.has(user)
}

/** A full `User` from either upstream user shape. */
export function normalizeUser(value: unknown): User {
	const raw = asObject(value)
	const business = businessAddress(raw)
	const counts = [
		countOrNull(asObject(raw.edge_followed_by).count ?? raw.follower_count),
		countOrNull(asObject(raw.edge_follow).count ?? raw.following_count),
		countOrNull(asObject(raw.edge_owner_to_timeline_media).count ?? raw.media_count)
	] as const
	const user: User = {
		...normalizeUserShort(raw),
		profile_pic_url_hd: textOrNull(raw.profile_pic_url_hd ?? asObject(raw.hd_profile_pic_url_info).url),
		biography: text(raw.biography),
		external_url: textOrNull(raw.external_url),
		follower_count: counts[0] ?? 0,
		following_count: counts[1] ?? 0,
		media_count: counts[2] ?? 0,
		is_business: flag(raw.is_business_account ?? raw.is_business),
		is_professional_account: flagOrNull(raw.is_professional_account),
		category: textOrNull(raw.category_name ?? raw.category ?? raw.account_category),
		highlight_count: countOrNull(raw.highlight_reel_count),
		mutual_followers_count: countOrNull(
			raw.mutual_followers_count ?? asObject(raw.edge_mutual_followed_by).count
		),
		total_clips_count: countOrNull(raw.total_clips_count),
		is_threads_user: flagOrNull(raw.is_active_on_text_post_app),
		pronouns: asArray(raw.pronouns)
			.map((pronoun) => text(pronoun))
			.filter(Boolean),
		fbid: idOrNull(raw.fbid),
		contact: {
			email: textOrNull(raw.public_email ?? raw.business_email),
			phone: textOrNull(raw.public_phone_number ?? raw.business_phone_number ?? raw.contact_phone_number),
			phone_country_code: textOrNull(raw.public_phone_country_code),
			city: textOrNull(raw.city_name) ?? business.city,
			address: textOrNull(raw.address_street) ?? business.address
		},
		bio_links: bioLinks(raw.bio_links),
		bio_entities: bioEntities(raw.biography_with_entities)
	}
	if (counts.includes(null)) withoutCounts.add(user)
	return user
}

/**
 * Merges the web profile with user info: web values win, info fills what the web profile lacks
 * (contact details, mutual followers, threads, clips).
 */
export function mergeUsers(web: User | undefined, info: User | undefined): User | undefined {
	if (!web || !info) return web ?? info
	const merged = { ...info } as Record<string, unknown>
	for (const [key, webValue] of Object.entries(web)) {
		const infoValue = (info as Record<string, unknown>)[key]
		if (Array.isArray(webValue)) merged[key] = webValue.length ? webValue : infoValue
		else if (webValue !== null && webValue !== '') merged[key] = webValue
	}
	merged.contact = Object.fromEntries(
		Object.entries(web.contact).map(([key, webValue]) => [
			key,
			webValue ?? info.contact[key as keyof User['contact']]
		])
	)
	return merged as User
}
