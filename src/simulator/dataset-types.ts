/** The shapes of the seeded demo data set. They are internal: routes turn them into Instagram's JSON. */

/** A bio link as Instagram lists it under `bio_links`. */
export interface DemoBioLink {
	title: string
	url: string
	linkType: 'external'
}

/** One account. `pk` is a decimal string (user pks stay below 2^53 but are ids, not numbers). */
export interface DemoUser {
	pk: string
	username: string
	fullName: string
	biography: string
	externalUrl: string | null
	bioLinks: DemoBioLink[]
	isPrivate: boolean
	isVerified: boolean
	isBusiness: boolean
	category: string | null
	publicEmail: string | null
	publicPhone: { countryCode: string; number: string } | null
	city: string | null
	addressStreet: string | null
	pronouns: string[]
	fbid: string
	isThreadsUser: boolean
}

/** One carousel child. */
export interface DemoCarouselChild {
	pk: bigint
	mediaType: 1 | 2
	width: number
	height: number
}

/** One post or reel. Like and comment totals are derived from the (lazily generated) lists. */
export interface DemoMedia {
	pk: bigint
	/** `"<pk>_<ownerpk>"`, Instagram's media id. */
	id: string
	code: string
	ownerPk: string
	mediaType: 1 | 2 | 8
	productType: 'feed' | 'clips' | 'carousel_container'
	takenAt: number
	caption: string
	captionPk: string
	hashtags: string[]
	/** Likes from accounts other than the viewer (the viewer's like is tracked per simulator instance). */
	likerCount: number
	topLevelCommentCount: number
	replyCount: number
	locationPk: string | null
	usertags: string[]
	children: DemoCarouselChild[]
	width: number
	height: number
	videoDuration: number | null
	playCount: number | null
	accessibilityCaption: string
	music: { title: string; artist: string; durationMs: number; id: string } | null
}

/** A comment or a reply (`parentPk` set). */
export interface DemoComment {
	pk: string
	mediaPk: bigint
	userPk: string
	text: string
	createdAt: number
	likeCount: number
	parentPk: string | null
	replies: DemoComment[]
}

/** A hashtag; `id` is a 17-digit number like Instagram's (beyond 2^53). */
export interface DemoHashtag {
	id: bigint
	name: string
}

/** A place (location). */
export interface DemoPlace {
	pk: string
	name: string
	shortName: string
	address: string
	city: string
	lat: number
	lng: number
	facebookPlacesId: string
}

/** A story item. Its times are relative to the request time, so it is always active. */
export interface DemoStory {
	pk: bigint
	ownerPk: string
	mediaType: 1 | 2
	/** Seconds before "now" the story was posted (under 24 hours). */
	ageSeconds: number
	videoDuration: number | null
	mentionPks: string[]
	hashtag: string | null
	locationPk: string | null
	linkUrl: string | null
	pollQuestion: string | null
	viewerCount: number
}

/** A story highlight. */
export interface DemoHighlight {
	id: string
	ownerPk: string
	title: string
	mediaCount: number
	createdAt: number
	updatedAt: number
	isPinned: boolean
	coverKey: string
}

/** A saved collection of the viewer. */
export interface DemoCollection {
	id: string
	name: string
	type: 'ALL_MEDIA_AUTO_COLLECTION' | 'MEDIA' | 'AUDIO_AUTO_COLLECTION'
	mediaPks: string[]
}

/** One activity-feed entry for the viewer. */
export interface DemoNotification {
	pk: string
	kind: 'user_followed' | 'like' | 'comment_like' | 'comment'
	userPk: string
	mediaPk: string | null
	commentText: string | null
	timestamp: number
	isNew: boolean
}

/** A direct message. */
export interface DemoMessage {
	itemId: string
	userPk: string
	/** Microseconds, as Instagram sends direct timestamps. */
	timestampMicros: number
	text: string
}

/** A direct thread of the viewer; messages are oldest first. */
export interface DemoThread {
	threadId: string
	title: string
	isGroup: boolean
	muted: boolean
	userPks: string[]
	messages: DemoMessage[]
}

/** A login session of the viewer (login activity). */
export interface DemoLoginSession {
	id: string
	device: string
	location: string
	latitude: number
	longitude: number
	timestamp: number
	isCurrent: boolean
}

/** Settings and private details of the viewer's own account. */
export interface DemoAccount {
	email: string
	phoneNumber: string
	birthday: string
	gender: number
	dateJoined: number
	country: string
	twoFactorEnabled: boolean
	hideLikeCounts: boolean
	showActivityStatus: boolean
	allowStoryReshare: boolean
	allowCommentsFrom: string
	allowTagsFrom: string
	allowMentionsFrom: string
	messageRequestsFrom: string
}
