/** Panels about people and posts: Users, Media, Feed, Search, Stories. */
import {
	commentPk,
	count,
	type DataPanelSpec,
	hashtag,
	MEDIA_PKS,
	mediaPk,
	query,
	TAGS,
	THREAD,
	username,
	userPk
} from './catalog-fields'

/** Panels about people and posts, in navigation order. */
export const CONTENT_PANELS: DataPanelSpec[] = [
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
			},
			{
				id: 'replies',
				label: 'Comment replies',
				path: '/api/media/comments/{media_pk}/replies/{comment_pk}',
				description: "Every reply to a comment (a comment's replies field shows at most two).",
				fields: [mediaPk(THREAD.mediaPk), commentPk()]
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
				fields: [hashtag('hashtag')]
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
	}
]
