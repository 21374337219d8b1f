/** Descriptions of the OpenAPI document's tags (one per route group). */
export const tagDescriptions: Record<string, string> = {
	System: 'Server status, request history and statistics',
	Saved: 'Results saved as JSON files',
	Export: 'Records as CSV downloads',
	AI: 'The AI agent: questions in plain language, answered by code run against the client',
	Users: 'Profiles by username or id, user search, parsed bios',
	Media: 'Posts, reels and carousels: details, likers, comments',
	Feed: "A user's posts, hashtag feeds, the account's liked and saved posts",
	Search: 'Users, hashtags, places and the explore page',
	Stories: 'Stories, highlights and the stories tray',
	Friendships: 'Followers, following, friendship status, pending requests',
	Account: 'The logged-in account: profile, settings, blocked and restricted users',
	Public: 'Anonymous endpoints that work without Instagram credentials',
	Hashtags: 'Hashtag details',
	Notifications: 'The activity feed and its counters',
	Direct: 'Direct-message threads',
	Analytics: 'Figures of a profile from its recent posts, and profiles side by side',
	Jobs: 'Collection jobs: whole lists collected in the background, with progress and exports'
}
