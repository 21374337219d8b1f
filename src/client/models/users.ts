/** User models: the short list record, the full profile, contact details and the parsed bio. */
import { type Static, Type } from '@sinclair/typebox'
import { Count, Id, Nullable } from './helpers'

/** The short user record of lists (followers, likers, search results). */
export const UserShort = Type.Object({
	pk: Id,
	username: Type.String(),
	full_name: Type.String(),
	is_private: Type.Boolean(),
	is_verified: Type.Boolean(),
	profile_pic_url: Type.String()
})

/** A link-in-bio entry (`bio_links[]`). */
export const BioLink = Type.Object({
	title: Type.String(),
	url: Type.String(),
	lynx_url: Nullable(Type.String()),
	link_type: Nullable(Type.String())
})

/** A structured mention or hashtag from `biography_with_entities`. */
export const BioEntity = Type.Union([
	Type.Object({ type: Type.Literal('mention'), username: Type.String() }),
	Type.Object({ type: Type.Literal('hashtag'), name: Type.String() })
])

/** Public business contact details (user info endpoint only). */
export const Contact = Type.Object({
	email: Nullable(Type.String()),
	phone: Nullable(Type.String()),
	phone_country_code: Nullable(Type.String()),
	city: Nullable(Type.String()),
	address: Nullable(Type.String())
})

/** A full user profile, normalised from web_profile_info or `/users/{pk}/info/`. */
export const User = Type.Object({
	pk: Id,
	username: Type.String(),
	full_name: Type.String(),
	is_private: Type.Boolean(),
	is_verified: Type.Boolean(),
	profile_pic_url: Type.String(),
	profile_pic_url_hd: Nullable(Type.String()),
	biography: Type.String(),
	external_url: Nullable(Type.String()),
	follower_count: Count,
	following_count: Count,
	media_count: Count,
	is_business: Type.Boolean(),
	is_professional_account: Nullable(Type.Boolean()),
	category: Nullable(Type.String()),
	highlight_count: Nullable(Count),
	mutual_followers_count: Nullable(Count),
	total_clips_count: Nullable(Count),
	is_threads_user: Nullable(Type.Boolean()),
	pronouns: Type.Array(Type.String()),
	fbid: Nullable(Id),
	contact: Contact,
	bio_links: Type.Array(BioLink),
	bio_entities: Type.Array(BioEntity)
})

/** Everything found in a biography (`users.parseBio`). */
export const ParsedBio = Type.Object({
	pk: Id,
	username: Type.String(),
	biography: Type.String(),
	bio_mentions: Type.Array(Type.String()),
	bio_hashtags: Type.Array(Type.String()),
	bio_urls: Type.Array(Type.String()),
	bio_emails: Type.Array(Type.String()),
	bio_phones: Type.Array(Type.String()),
	bio_links: Type.Array(BioLink),
	bio_entities: Type.Array(BioEntity)
})

/** `users.getFullProfile`: web profile merged with user info (web values win) plus bio parsing. */
export const FullProfile = Type.Composite([
	User,
	Type.Omit(ParsedBio, ['pk', 'username', 'biography', 'bio_links', 'bio_entities']),
	Type.Object({ sources: Type.Array(Type.String({ description: 'upstream sources that answered' })) })
])

export type UserShort = Static<typeof UserShort>
export type BioLink = Static<typeof BioLink>
export type BioEntity = Static<typeof BioEntity>
export type Contact = Static<typeof Contact>
export type User = Static<typeof User>
export type ParsedBio = Static<typeof ParsedBio>
export type FullProfile = Static<typeof FullProfile>
