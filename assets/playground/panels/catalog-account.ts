/**
 * Panels about the logged-in account and anonymous access: Friendships, Account, Public, Hashtags,
 * Notifications, Direct.
 */
import { count, type DataPanelSpec, hashtag, username, userPk } from './catalog-fields'

/** Panels about the logged-in account and anonymous access, in navigation order. */
export const ACCOUNT_PANELS: DataPanelSpec[] = [
	{
		id: 'friendships',
		title: 'Friendships',
		description: 'Followers, following, friendship status, mutual followers and pending requests.',
		actions: [
			{
				id: 'followers',
				label: 'Followers',
				path: '/api/friendships/followers/{user_pk}',
				description: 'Followers, or only those whose username or name contains the search text.',
				fields: [
					userPk(),
					count(50, 1000),
					{ name: 'q', label: 'Search followers', in: 'query', placeholder: 'optional: part of a name' }
				]
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
				fields: [hashtag('tag')]
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
