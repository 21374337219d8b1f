/**
 * The method registry: every public client method once, with its parameters, result and access
 * kind. The agent builds its tool list and sandbox bridge from it; the playground its permissions.
 * A test checks it matches the client's methods exactly.
 */
import type { ApiGroupName } from './client'

/** One parameter of a client method. */
export interface MethodParam {
	name: string
	/** TypeScript-like type, e.g. `string`, `{ count?: number, cursor?: string }`. */
	type: string
	description: string
	optional?: boolean
}

/** One public client method. */
export interface MethodSpec {
	/** `group.name`, e.g. `users.getByUsername`. */
	path: string
	group: ApiGroupName
	name: string
	params: MethodParam[]
	/** Result type name (models of `types.ts`; `Page<T>` is `{ items: T[], next_cursor }`). */
	returns: string
	/** One line for humans and the model. */
	description: string
	/** `write` changes the account (like, comment, follow, message): needs permission. */
	access: 'read' | 'write'
}

const USERNAME: MethodParam = {
	name: 'username',
	type: 'string',
	description: 'Instagram username (with or without @)'
}
const USER_PK: MethodParam = {
	name: 'userPk',
	type: 'string',
	description: 'numeric user id (pk) as a string'
}
const MEDIA_PK: MethodParam = {
	name: 'mediaPk',
	type: 'string',
	description: 'media pk as a string (or "<pk>_<owner>" id)'
}
const QUERY: MethodParam = { name: 'query', type: 'string', description: 'search text' }
const TAG: MethodParam = { name: 'tag', type: 'string', description: 'hashtag name without #' }
const LIST: MethodParam = {
	name: 'options',
	type: '{ count?: number, cursor?: string }',
	description: 'count: collect across pages up to this many items; cursor: next_cursor of a previous page',
	optional: true
}

function entry(
	group: ApiGroupName,
	name: string,
	params: MethodParam[],
	returns: string,
	description: string,
	access: 'read' | 'write' = 'read'
): MethodSpec {
	return { path: `${group}.${name}`, group, name, params, returns, description, access }
}

/** Every public method of `InstagramClient`, grouped as in docs/architecture.md, "Client API surface". */
export const methodRegistry: readonly MethodSpec[] = Object.freeze([
	entry('users', 'getByUsername', [USERNAME], 'User', 'Full profile of a user by username'),
	entry('users', 'getById', [USER_PK], 'User', 'Full profile of a user by numeric pk'),
	entry('users', 'search', [QUERY, LIST], 'Page<UserShort>', 'Search users (exact username first)'),
	entry(
		'users',
		'getFullProfile',
		[USERNAME],
		'FullProfile',
		'Profile merged with contact info and parsed bio'
	),
	entry(
		'users',
		'parseBio',
		[USERNAME],
		'ParsedBio',
		'Mentions, hashtags, URLs, e-mails, phones and links of a bio'
	),
	entry('media', 'getInfo', [MEDIA_PK], 'Media', 'Details of a post, reel or carousel'),
	entry(
		'media',
		'getFullInfo',
		[MEDIA_PK],
		'MediaFull',
		'Media details plus owner profile, first comments and likers'
	),
	entry(
		'media',
		'getInfoV2',
		[MEDIA_PK],
		'MediaV2',
		'Media details with shortcode, type name, images and videos'
	),
	entry(
		'media',
		'getByUrl',
		[{ name: 'url', type: 'string', description: 'post/reel URL' }],
		'Media',
		'Media details from an instagram.com/p/... URL'
	),
	entry('media', 'getLikers', [MEDIA_PK, LIST], 'Page<UserShort>', 'Users who liked a media'),
	entry(
		'media',
		'getComments',
		[MEDIA_PK, LIST],
		'Page<Comment> & { total_count, has_more }',
		'Comments of a media with totals'
	),
	entry('media', 'like', [MEDIA_PK], 'LikeResult', 'Like a media as the logged-in account', 'write'),
	entry('media', 'unlike', [MEDIA_PK], 'LikeResult', 'Remove the like of the logged-in account', 'write'),
	entry(
		'media',
		'comment',
		[MEDIA_PK, { name: 'text', type: 'string', description: 'comment text' }],
		'Comment',
		'Post a comment on a media',
		'write'
	),
	entry('feed', 'getUserFeed', [USER_PK, LIST], 'Page<Media>', "A user's posts, newest first"),
	entry('feed', 'getTagFeed', [TAG, LIST], 'Page<Media>', 'Recent posts of a hashtag'),
	entry('feed', 'getLiked', [LIST], 'Page<Media>', 'Posts the logged-in account liked'),
	entry('feed', 'getSaved', [LIST], 'Page<SavedCollection>', 'Saved collections of the logged-in account'),
	entry('search', 'top', [QUERY], 'TopSearch', 'Users, hashtags and places matching a query'),
	entry('search', 'users', [QUERY, LIST], 'Page<UserShort>', 'Users matching a query'),
	entry('search', 'hashtags', [QUERY, LIST], 'Page<Hashtag>', 'Hashtags matching a query'),
	entry('search', 'places', [QUERY, LIST], 'Page<Place>', 'Places matching a query'),
	entry('search', 'explore', [LIST], 'Page<Media>', 'Posts of the explore page'),
	entry('stories', 'getUserStories', [USER_PK, LIST], 'Page<Story>', 'Active stories of a user'),
	entry('stories', 'getHighlights', [USER_PK, LIST], 'Page<Highlight>', 'Story highlights of a user'),
	entry(
		'stories',
		'getTray',
		[LIST],
		'Page<ReelTrayItem>',
		'Accounts with stories in the logged-in stories tray'
	),
	entry('friendships', 'getFollowers', [USER_PK, LIST], 'Page<UserShort>', 'Followers of a user'),
	entry('friendships', 'getFollowing', [USER_PK, LIST], 'Page<UserShort>', 'Accounts a user follows'),
	entry(
		'friendships',
		'getStatus',
		[USER_PK],
		'FriendshipStatus',
		'Relationship between the logged-in account and a user'
	),
	entry(
		'friendships',
		'getMutualFollowers',
		[USER_PK, LIST],
		'Page<UserShort>',
		'Followers of a user whom the logged-in account follows'
	),
	entry(
		'friendships',
		'getPendingRequests',
		[LIST],
		'Page<UserShort>',
		'Follow requests received by the logged-in account'
	),
	entry('friendships', 'follow', [USER_PK], 'FriendshipStatus', 'Follow a user (or request to)', 'write'),
	entry('friendships', 'unfollow', [USER_PK], 'FriendshipStatus', 'Unfollow a user', 'write'),
	entry('account', 'getCurrentUser', [], 'User', 'Profile of the logged-in account'),
	entry(
		'account',
		'getAccountInfo',
		[],
		'RawObject',
		'Account information settings (e-mail, phone, birthday)'
	),
	entry('account', 'getBlockedUsers', [LIST], 'Page<UserShort>', 'Users the logged-in account blocked'),
	entry('account', 'getRestrictedUsers', [LIST], 'Page<UserShort>', 'Users the logged-in account restricted'),
	entry('account', 'getLoginActivity', [], 'RawObject', 'Login sessions and suspicious logins'),
	entry('account', 'getPrivacySettings', [], 'RawObject', 'Privacy and security settings'),
	entry('public', 'getProfile', [USERNAME], 'PublicProfile', 'Profile without login (anonymous)'),
	entry('public', 'getPosts', [USERNAME, LIST], 'Page<Media>', "A user's posts without login (anonymous)"),
	entry('hashtags', 'getInfo', [TAG], 'Hashtag', 'Hashtag details and post count'),
	entry('notifications', 'getActivity', [], 'Activity', 'The whole activity feed with counters'),
	entry('notifications', 'getCounts', [], 'NotificationCounts', 'Unread activity counters'),
	entry('notifications', 'getParsed', [LIST], 'Page<Notification>', 'All notifications, flattened'),
	entry(
		'notifications',
		'getFollowNotifications',
		[LIST],
		'Page<Notification>',
		'New-follower notifications'
	),
	entry(
		'notifications',
		'getLikeNotifications',
		[LIST],
		'Page<Notification>',
		'Like and comment-like notifications'
	),
	entry('direct', 'getInbox', [LIST], 'Page<DirectThread>', 'Direct-message threads'),
	entry(
		'direct',
		'sendText',
		[USER_PK, { name: 'text', type: 'string', description: 'message text' }],
		'DirectSendResult',
		'Send a direct message to a user',
		'write'
	)
])

/** The registry entry for `path` (`users.getByUsername`), if any. */
export function findMethod(path: string): MethodSpec | undefined {
	return methodRegistry.find((method) => method.path === path)
}

/**
 * Calls a registered method on a client by path (`'users.getByUsername'`, args as JSON values). The
 * agent's sandbox bridge uses it; unknown paths throw (only registered methods are reachable).
 */
export async function invokeMethod(client: object, path: string, args: readonly unknown[]): Promise<unknown> {
	const spec = findMethod(path)
	if (!spec) throw new TypeError(`Unknown client method: ${path}`)
	const group = (client as Record<string, Record<string, (...parameters: unknown[]) => Promise<unknown>>>)[
		spec.group
	]
	const method = group?.[spec.name]
	if (typeof method !== 'function') throw new TypeError(`Client has no method ${path}`)
	return method.apply(group, [...args])
}
