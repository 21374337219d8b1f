/**
 * The method registry: every public client method once, with its parameters, result and access
 * kind. The agent builds its tool list and sandbox bridge from it; the playground its permissions.
 * A test checks it matches the client's methods exactly.
 */
import { entry, type MethodParam, type MethodSpec, one, page } from './method-spec'
import * as models from './types'

export type { MethodParam, MethodResult, MethodSpec } from './method-spec'

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

const FOLLOWER_LIST: MethodParam = {
	...LIST,
	type: '{ count?: number, cursor?: string, query?: string }',
	description: `${LIST.description}; query: only followers whose username or full name contains it`
}

/** Every public method of `InstagramClient`, grouped as in docs/architecture.md, "Client API surface". */
export const methodRegistry: readonly MethodSpec[] = Object.freeze([
	entry('users', 'getByUsername', [USERNAME], one(models.User), 'Full profile of a user by username'),
	entry('users', 'getById', [USER_PK], one(models.User), 'Full profile of a user by numeric pk'),
	entry('users', 'search', [QUERY, LIST], page(models.UserShort), 'Search users (exact username first)'),
	entry(
		'users',
		'getFullProfile',
		[USERNAME],
		one(models.FullProfile),
		'Profile merged with contact info and parsed bio'
	),
	entry(
		'users',
		'parseBio',
		[USERNAME],
		one(models.ParsedBio),
		'Mentions, hashtags, URLs, e-mails, phones and links of a bio'
	),
	entry('media', 'getInfo', [MEDIA_PK], one(models.Media), 'Details of a post, reel or carousel'),
	entry(
		'media',
		'getFullInfo',
		[MEDIA_PK],
		one(models.MediaFull),
		'Media details plus owner profile, first comments and likers'
	),
	entry(
		'media',
		'getInfoV2',
		[MEDIA_PK],
		one(models.MediaV2),
		'Media details with shortcode, type name, images and videos'
	),
	entry(
		'media',
		'getByUrl',
		[{ name: 'url', type: 'string', description: 'post/reel URL' }],
		one(models.Media),
		'Media details from an instagram.com/p/... URL'
	),
	entry('media', 'getLikers', [MEDIA_PK, LIST], page(models.UserShort), 'Users who liked a media'),
	entry(
		'media',
		'getComments',
		[MEDIA_PK, LIST],
		page(models.Comment, models.CommentPage),
		'Comments of a media with totals'
	),
	entry(
		'media',
		'getCommentReplies',
		[MEDIA_PK, { name: 'commentPk', type: 'string', description: 'comment pk as a string' }, LIST],
		page(models.CommentReply, models.CommentReplyPage),
		"Every reply to a comment, oldest first (a comment's replies field shows at most two)"
	),
	entry(
		'media',
		'like',
		[MEDIA_PK],
		one(models.LikeResult),
		'Like a media as the logged-in account',
		'write'
	),
	entry(
		'media',
		'unlike',
		[MEDIA_PK],
		one(models.LikeResult),
		'Remove the like of the logged-in account',
		'write'
	),
	entry(
		'media',
		'comment',
		[MEDIA_PK, { name: 'text', type: 'string', description: 'comment text' }],
		one(models.Comment),
		'Post a comment on a media',
		'write'
	),
	entry('feed', 'getUserFeed', [USER_PK, LIST], page(models.Media), "A user's posts, newest first"),
	entry('feed', 'getTagFeed', [TAG, LIST], page(models.Media), 'Recent posts of a hashtag'),
	entry('feed', 'getLiked', [LIST], page(models.Media), 'Posts the logged-in account liked'),
	entry(
		'feed',
		'getSaved',
		[LIST],
		page(models.SavedCollection),
		'Saved collections of the logged-in account'
	),
	entry('search', 'top', [QUERY], one(models.TopSearch), 'Users, hashtags and places matching a query'),
	entry('search', 'users', [QUERY, LIST], page(models.UserShort), 'Users matching a query'),
	entry('search', 'hashtags', [QUERY, LIST], page(models.Hashtag), 'Hashtags matching a query'),
	entry('search', 'places', [QUERY, LIST], page(models.Place), 'Places matching a query'),
	entry('search', 'explore', [LIST], page(models.Media), 'Posts of the explore page'),
	entry('stories', 'getUserStories', [USER_PK, LIST], page(models.Story), 'Active stories of a user'),
	entry('stories', 'getHighlights', [USER_PK, LIST], page(models.Highlight), 'Story highlights of a user'),
	entry(
		'stories',
		'getTray',
		[LIST],
		page(models.ReelTrayItem),
		'Accounts with stories in the logged-in stories tray'
	),
	entry(
		'friendships',
		'getFollowers',
		[USER_PK, FOLLOWER_LIST],
		page(models.UserShort),
		'Followers of a user'
	),
	entry('friendships', 'getFollowing', [USER_PK, LIST], page(models.UserShort), 'Accounts a user follows'),
	entry(
		'friendships',
		'getStatus',
		[USER_PK],
		one(models.FriendshipStatus),
		'Relationship between the logged-in account and a user'
	),
	entry(
		'friendships',
		'getMutualFollowers',
		[USER_PK, LIST],
		page(models.UserShort),
		'Followers of a user whom the logged-in account follows'
	),
	entry(
		'friendships',
		'getPendingRequests',
		[LIST],
		page(models.UserShort),
		'Follow requests received by the logged-in account'
	),
	entry(
		'friendships',
		'follow',
		[USER_PK],
		one(models.FriendshipStatus),
		'Follow a user (or request to)',
		'write'
	),
	entry('friendships', 'unfollow', [USER_PK], one(models.FriendshipStatus), 'Unfollow a user', 'write'),
	entry('account', 'getCurrentUser', [], one(models.User), 'Profile of the logged-in account'),
	entry(
		'account',
		'getAccountInfo',
		[],
		one(models.RawObject),
		'Account information settings (e-mail, phone, birthday)'
	),
	entry('account', 'getBlockedUsers', [LIST], page(models.UserShort), 'Users the logged-in account blocked'),
	entry(
		'account',
		'getRestrictedUsers',
		[LIST],
		page(models.UserShort),
		'Users the logged-in account restricted'
	),
	entry('account', 'getLoginActivity', [], one(models.RawObject), 'Login sessions and suspicious logins'),
	entry('account', 'getPrivacySettings', [], one(models.RawObject), 'Privacy and security settings'),
	entry('public', 'getProfile', [USERNAME], one(models.PublicProfile), 'Profile without login (anonymous)'),
	entry(
		'public',
		'getPosts',
		[USERNAME, LIST],
		page(models.Media),
		"A user's posts without login (anonymous)"
	),
	entry('hashtags', 'getInfo', [TAG], one(models.Hashtag), 'Hashtag details and post count'),
	entry('notifications', 'getActivity', [], one(models.Activity), 'The whole activity feed with counters'),
	entry('notifications', 'getCounts', [], one(models.NotificationCounts), 'Unread activity counters'),
	entry('notifications', 'getParsed', [LIST], page(models.Notification), 'All notifications, flattened'),
	entry(
		'notifications',
		'getFollowNotifications',
		[LIST],
		page(models.Notification),
		'New-follower notifications'
	),
	entry(
		'notifications',
		'getLikeNotifications',
		[LIST],
		page(models.Notification),
		'Like and comment-like notifications'
	),
	entry('direct', 'getInbox', [LIST], page(models.DirectThread), 'Direct-message threads'),
	entry(
		'direct',
		'sendText',
		[USER_PK, { name: 'text', type: 'string', description: 'message text' }],
		one(models.DirectSendResult),
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
