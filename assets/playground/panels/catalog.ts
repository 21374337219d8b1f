/**
 * The data panels and their endpoints (SPEC.md section 4), declared once: the forms, the deep
 * links and History's "re-run" all read this table. Presets name records that exist in the demo
 * data set, so every example works with `--demo`.
 */

/** A suggested value shown as a clickable chip beside an input. */
export interface Preset {
	label: string
	value: string
}

/** One input of an endpoint form. */
export interface FieldSpec {
	name: string
	label: string
	in: 'path' | 'query'
	kind?: 'text' | 'number' | 'url'
	value?: string
	placeholder?: string
	hint?: string
	required?: boolean
	min?: number
	max?: number
	presets?: Preset[]
}

/** One endpoint of a panel. */
export interface ActionSpec {
	id: string
	label: string
	path: string
	description: string
	fields: FieldSpec[]
	/** False for the anonymous endpoints that work without a session. */
	login?: boolean
}

/** A data panel: a group of endpoints sharing one result view. */
export interface DataPanelSpec {
	id: string
	title: string
	description: string
	actions: ActionSpec[]
}

const USERNAMES: Preset[] = [
	{ label: 'luna.explorer', value: 'luna.explorer' },
	{ label: 'private.pat', value: 'private.pat' },
	{ label: 'xss.payload', value: 'xss.payload' },
	{ label: 'smkit_demo (me)', value: 'smkit_demo' }
]
const USER_PKS: Preset[] = [
	{ label: 'luna.explorer', value: '1000000002' },
	{ label: 'private.pat', value: '1000000003' },
	{ label: 'xss.payload', value: '1000000004' },
	{ label: 'me', value: '1000000001' }
]
const MEDIA_PKS: Preset[] = [
	{ label: 'DVUVYxwAOOz', value: '3842790443716764595' },
	{ label: 'DVMlhZ8ACcm', value: '3840609605554022182' },
	{ label: 'DUQoGM4juNA', value: '3823732431648645952' }
]
const TAGS: Preset[] = [
	{ label: 'sunset', value: 'sunset' },
	{ label: 'travel', value: 'travel' },
	{ label: 'coffee', value: 'coffee' }
]

function username(value = 'luna.explorer'): FieldSpec {
	return { name: 'username', label: 'Username', in: 'path', value, required: true, presets: USERNAMES }
}
function userPk(name = 'user_pk'): FieldSpec {
	return { name, label: 'User ID (pk)', in: 'path', value: '1000000002', required: true, presets: USER_PKS }
}
function mediaPk(): FieldSpec {
	return {
		name: 'media_pk',
		label: 'Media ID (pk)',
		in: 'path',
		value: MEDIA_PKS[0].value,
		required: true,
		presets: MEDIA_PKS
	}
}
function query(value: string, presets: Preset[]): FieldSpec {
	return { name: 'q', label: 'Search text', in: 'query', value, required: true, presets }
}
function count(value: number, max: number): FieldSpec {
	return {
		name: 'count',
		label: 'Count',
		in: 'query',
		kind: 'number',
		value: String(value),
		min: 1,
		max,
		hint: `1 to ${max}`
	}
}

/** Every data panel, in navigation order. */
export const DATA_PANELS: DataPanelSpec[] = [
	{
		id: 'users',
		title: 'Users',
		description: 'Profiles by username or id, user search, full profiles and parsed bios.',
		actions: [
			{
				id: 'username',
				label: 'By username',
				path: '/api/users/username/{username}',
				description: 'User by username.',
				fields: [username()]
			},
			{
				id: 'id',
				label: 'By ID',
				path: '/api/users/id/{user_id}',
				description: 'User by numeric id (pk).',
				fields: [userPk('user_id')]
			},
			{
				id: 'search',
				label: 'Search',
				path: '/api/users/search',
				description: 'Search users.',
				fields: [
					query('luna', [
						{ label: 'luna', value: 'luna' },
						{ label: 'travel', value: 'travel' }
					])
				]
			},
			{
				id: 'full',
				label: 'Full profile',
				path: '/api/users/full/{username}',
				description: 'Profile with recent posts and followers.',
				fields: [username()]
			},
			{
				id: 'bio',
				label: 'Parsed bio',
				path: '/api/users/bio/{username}',
				description: 'Emails, phones, links, mentions and hashtags found in the bio.',
				fields: [username()]
			}
		]
	},
	{
		id: 'media',
		title: 'Media',
		description: 'Posts by id or URL, their likers and comments.',
		actions: [
			{
				id: 'info',
				label: 'Info',
				path: '/api/media/info/{media_pk}',
				description: 'Media info.',
				fields: [mediaPk()]
			},
			{
				id: 'full',
				label: 'Full',
				path: '/api/media/full/{media_pk}',
				description: 'Full media details.',
				fields: [mediaPk()]
			},
			{
				id: 'v2',
				label: 'Info (v2)',
				path: '/api/media/v2/{media_pk}',
				description: 'Media info from the second-version endpoint.',
				fields: [mediaPk()]
			},
			{
				id: 'by-url',
				label: 'By URL',
				path: '/api/media/by-url',
				description: 'Media by its public URL.',
				fields: [
					{
						name: 'url',
						label: 'Post URL',
						in: 'query',
						kind: 'url',
						value: 'https://www.instagram.com/p/DVUVYxwAOOz/',
						required: true,
						presets: MEDIA_PKS.map((preset) => ({
							label: preset.label,
							value: `https://www.instagram.com/p/${preset.label}/`
						}))
					}
				]
			},
			{
				id: 'likers',
				label: 'Likers',
				path: '/api/media/likers/{media_pk}',
				description: 'Users who liked the post.',
				fields: [mediaPk()]
			},
			{
				id: 'comments',
				label: 'Comments',
				path: '/api/media/comments/{media_pk}',
				description: 'Parsed comments.',
				fields: [mediaPk()]
			}
		]
	},
	{
		id: 'feed',
		title: 'Feed',
		description: "A user's posts, hashtag feeds, and your liked and saved posts.",
		actions: [
			{
				id: 'user',
				label: 'User feed',
				path: '/api/feed/user/{user_pk}',
				description: "A user's posts.",
				fields: [userPk(), count(12, 200)]
			},
			{
				id: 'tag',
				label: 'Hashtag feed',
				path: '/api/feed/tag/{hashtag}',
				description: 'Posts with a hashtag.',
				fields: [
					{ name: 'hashtag', label: 'Hashtag', in: 'path', value: 'sunset', required: true, presets: TAGS }
				]
			},
			{ id: 'liked', label: 'Liked', path: '/api/feed/liked', description: 'Posts you liked.', fields: [] },
			{ id: 'saved', label: 'Saved', path: '/api/feed/saved', description: 'Posts you saved.', fields: [] }
		]
	},
	{
		id: 'search',
		title: 'Search',
		description: 'Top results, users, hashtags, places and the explore page.',
		actions: [
			{
				id: 'top',
				label: 'Top',
				path: '/api/search/top',
				description: 'Mixed top results.',
				fields: [
					query('luna', [
						{ label: 'luna', value: 'luna' },
						{ label: 'sunset', value: 'sunset' }
					])
				]
			},
			{
				id: 'users',
				label: 'Users',
				path: '/api/search/users',
				description: 'Users only.',
				fields: [
					query('luna', [
						{ label: 'luna', value: 'luna' },
						{ label: 'pat', value: 'pat' }
					])
				]
			},
			{
				id: 'hashtags',
				label: 'Hashtags',
				path: '/api/search/hashtags',
				description: 'Hashtags.',
				fields: [query('sunset', TAGS)]
			},
			{
				id: 'places',
				label: 'Places',
				path: '/api/search/places',
				description: 'Places.',
				fields: [query('paris', [{ label: 'paris', value: 'paris' }])]
			},
			{
				id: 'explore',
				label: 'Explore',
				path: '/api/search/explore',
				description: 'Explore page content.',
				fields: []
			}
		]
	},
	{
		id: 'stories',
		title: 'Stories',
		description: "A user's active stories and highlights, and your stories tray.",
		actions: [
			{
				id: 'user',
				label: 'User stories',
				path: '/api/stories/user/{user_pk}',
				description: "A user's active stories.",
				fields: [userPk()]
			},
			{
				id: 'highlights',
				label: 'Highlights',
				path: '/api/stories/highlights/{user_pk}',
				description: "A user's highlights tray.",
				fields: [userPk()]
			},
			{ id: 'tray', label: 'Tray', path: '/api/stories/tray', description: 'Your stories tray.', fields: [] }
		]
	},
	{
		id: 'friendships',
		title: 'Friendships',
		description: 'Followers, following, friendship status, mutual followers and pending requests.',
		actions: [
			{
				id: 'followers',
				label: 'Followers',
				path: '/api/friendships/followers/{user_pk}',
				description: 'Followers.',
				fields: [userPk(), count(50, 1000)]
			},
			{
				id: 'following',
				label: 'Following',
				path: '/api/friendships/following/{user_pk}',
				description: 'Accounts followed.',
				fields: [userPk(), count(50, 1000)]
			},
			{
				id: 'status',
				label: 'Status',
				path: '/api/friendships/status/{user_pk}',
				description: 'Friendship status with you.',
				fields: [userPk()]
			},
			{
				id: 'mutual',
				label: 'Mutual',
				path: '/api/friendships/mutual/{user_pk}',
				description: 'Mutual followers.',
				fields: [userPk()]
			},
			{
				id: 'pending',
				label: 'Pending',
				path: '/api/friendships/pending',
				description: 'Pending follow requests.',
				fields: []
			}
		]
	},
	{
		id: 'account',
		title: 'Account',
		description: 'The logged-in account: profile, blocked and restricted users, login activity, privacy.',
		actions: [
			{ id: 'me', label: 'Me', path: '/api/account/me', description: 'Your profile.', fields: [] },
			{ id: 'info', label: 'Info', path: '/api/account/info', description: 'Account info.', fields: [] },
			{
				id: 'blocked',
				label: 'Blocked',
				path: '/api/account/blocked',
				description: 'Blocked users.',
				fields: []
			},
			{
				id: 'restricted',
				label: 'Restricted',
				path: '/api/account/restricted',
				description: 'Restricted users.',
				fields: []
			},
			{
				id: 'login-activity',
				label: 'Login activity',
				path: '/api/account/login-activity',
				description: 'Login activity.',
				fields: []
			},
			{
				id: 'privacy',
				label: 'Privacy',
				path: '/api/account/privacy',
				description: 'Privacy settings.',
				fields: []
			}
		]
	},
	{
		id: 'public',
		title: 'Public',
		description: 'Anonymous endpoints: they work without logging in.',
		actions: [
			{
				id: 'profile',
				label: 'Profile',
				path: '/api/public/profile/{username}',
				description: 'Public profile.',
				fields: [username()],
				login: false
			},
			{
				id: 'posts',
				label: 'Posts',
				path: '/api/public/posts/{username}',
				description: 'Public posts.',
				fields: [username(), count(12, 200)],
				login: false
			}
		]
	},
	{
		id: 'hashtags',
		title: 'Hashtags',
		description: 'Hashtag information.',
		actions: [
			{
				id: 'info',
				label: 'Info',
				path: '/api/hashtags/info/{tag}',
				description: 'Hashtag information.',
				fields: [
					{ name: 'tag', label: 'Hashtag', in: 'path', value: 'sunset', required: true, presets: TAGS }
				]
			}
		]
	},
	{
		id: 'notifications',
		title: 'Notifications',
		description: 'Your activity feed: raw, counts, parsed, follows and likes.',
		actions: [
			{
				id: 'parsed',
				label: 'Parsed',
				path: '/api/notifications/parsed',
				description: 'Parsed notifications.',
				fields: []
			},
			{ id: 'raw', label: 'Raw', path: '/api/notifications', description: 'Raw notifications.', fields: [] },
			{
				id: 'counts',
				label: 'Counts',
				path: '/api/notifications/counts',
				description: 'Notification counts.',
				fields: []
			},
			{
				id: 'follows',
				label: 'Follows',
				path: '/api/notifications/follows',
				description: 'Follow notifications.',
				fields: []
			},
			{
				id: 'likes',
				label: 'Likes',
				path: '/api/notifications/likes',
				description: 'Like notifications.',
				fields: []
			}
		]
	},
	{
		id: 'direct',
		title: 'Direct',
		description: 'Your direct message inbox.',
		actions: [
			{
				id: 'inbox',
				label: 'Inbox',
				path: '/api/direct/inbox',
				description: 'Direct inbox threads.',
				fields: []
			}
		]
	}
]

/** A request path matched back to its panel, action and field values (History's re-run). */
export interface MatchedRequest {
	panel: DataPanelSpec
	action: ActionSpec
	values: Record<string, string>
}

/** Finds the panel action a GET path (with query) belongs to, or null. */
export function matchRequest(pathWithQuery: string): MatchedRequest | null {
	let url: URL
	try {
		url = new URL(pathWithQuery, 'http://playground.invalid')
	} catch {
		return null
	}
	for (const panel of DATA_PANELS) {
		for (const action of panel.actions) {
			const names: string[] = []
			const pattern = action.path
				.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
				.replace(/\{(\w+)\}/g, (_match, name: string) => {
					names.push(name)
					return '([^/]+)'
				})
			const match = new RegExp(`^${pattern}$`).exec(url.pathname)
			if (!match) continue
			const values: Record<string, string> = {}
			names.forEach((name, index) => {
				try {
					values[name] = decodeURIComponent(match[index + 1])
				} catch {
					values[name] = match[index + 1]
				}
			})
			for (const field of action.fields) {
				if (field.in === 'query' && url.searchParams.has(field.name))
					values[field.name] = url.searchParams.get(field.name) ?? ''
			}
			return { panel, action, values }
		}
	}
	return null
}
