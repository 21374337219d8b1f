/**
 * Anonymous HTML: the profile page `/{username}/` (title, `og:` meta tags with "N Followers, N Following,
 * N Posts", and JSON-LD, as the client's HTML strategy reads them) and the post embed
 * `/p/{shortcode}/embed/captioned/`. Every value from the data set is escaped: xss.payload lives here too.
 */
import type { DemoUser } from '../dataset-types'
import type { Route, RouteContext } from '../http'
import { imageUrl } from '../views-media'
import { profilePicUrl } from '../views-user'
import { formatCount } from './common'

/** Text safe inside HTML element content and double- or single-quoted attributes. */
export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}

/** JSON safe inside a `<script>` element (no `</script>` breakout). */
function scriptJson(value: unknown): string {
	return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')
}

const metaCount = (count: number) => (count >= 10_000 ? formatCount(count) : count.toLocaleString('en-US'))

function htmlResponse(body: string, status = 200): Response {
	return new Response(body, { status, headers: { 'content-type': 'text/html; charset=utf-8' } })
}

/** Instagram's page for a missing account or post. */
export function notFoundPage(): Response {
	return htmlResponse(
		'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Page not found • Instagram</title></head>' +
			"<body><h2>Sorry, this page isn't available.</h2><p>The link you followed may be broken, or the page may have been removed.</p></body></html>",
		404
	)
}

function profilePage(context: RouteContext, user: DemoUser): Response {
	const { state } = context
	const followers = state.followersOf(user.pk).length
	const following = state.followingOf(user.pk).length
	const posts = state.postsOf(user.pk).length
	const name = user.fullName ? `${user.fullName} (@${user.username})` : `@${user.username}`
	const title = `${name} • Instagram photos and videos`
	const description = `${metaCount(followers)} Followers, ${metaCount(following)} Following, ${metaCount(posts)} Posts - See Instagram photos and videos from ${name}`
	const picture = profilePicUrl(context.origin, user, 320)
	const jsonLd = {
		'@context': 'https://schema.org',
		'@type': 'ProfilePage',
		mainEntity: {
			'@type': 'Person',
			name: user.fullName,
			alternateName: `@${user.username}`,
			identifier: user.pk,
			description: user.biography,
			image: picture,
			interactionStatistic: [
				{
					'@type': 'InteractionCounter',
					interactionType: 'https://schema.org/FollowAction',
					userInteractionCount: followers
				}
			]
		}
	}
	return htmlResponse(
		`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
			`<meta property="og:type" content="profile"><meta property="og:title" content="${escapeHtml(title)}">` +
			`<meta property="og:image" content="${escapeHtml(picture)}">` +
			`<meta property="og:description" content="${escapeHtml(description)}">` +
			`<meta name="description" content="${escapeHtml(description)}">` +
			`<meta property="og:url" content="https://www.instagram.com/${escapeHtml(user.username)}/">` +
			`<meta property="al:ios:url" content="instagram://user?username=${escapeHtml(user.username)}">` +
			`<script type="application/ld+json">${scriptJson(jsonLd)}</script></head>` +
			`<body><main><header><h2>${escapeHtml(user.username)}</h2><span>${escapeHtml(user.fullName)}</span>` +
			`<p>${escapeHtml(user.biography)}</p></header></main></body></html>`
	)
}

function embedPage(context: RouteContext): Response {
	const media = context.state.mediaByCode(context.params.code ?? '')
	if (!media || !context.state.canView(null, media.ownerPk)) return notFoundPage()
	const owner = context.state.user(media.ownerPk) as DemoUser
	const likes = context.state.likeCount(media)
	const image = imageUrl(context.origin, media.code, media.width, media.height)
	return htmlResponse(
		`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Instagram</title></head><body>` +
			`<div class="Embed" data-media-id="${escapeHtml(media.id)}"><div class="Header">` +
			`<a class="Username" href="https://www.instagram.com/${escapeHtml(owner.username)}/">${escapeHtml(owner.username)}</a></div>` +
			`<a class="EmbeddedMedia" href="https://www.instagram.com/p/${escapeHtml(media.code)}/">` +
			`<img class="EmbeddedMediaImage" alt="${escapeHtml(media.accessibilityCaption)}" src="${escapeHtml(image)}"></a>` +
			`<div class="SocialProof"><a href="https://www.instagram.com/p/${escapeHtml(media.code)}/">${likes.toLocaleString('en-US')} likes</a></div>` +
			`<div class="Caption"><a class="CaptionUsername" href="https://www.instagram.com/${escapeHtml(owner.username)}/">` +
			`${escapeHtml(owner.username)}</a> ${escapeHtml(media.caption)}</div>` +
			`<a class="ViewOnInstagram" href="https://www.instagram.com/p/${escapeHtml(media.code)}/">View this post on Instagram</a>` +
			`</div></body></html>`
	)
}

/** HTML routes; the `/{username}/` catch-all must come after every other route. */
export const publicHtmlRoutes: readonly Route[] = [
	{ method: 'GET', path: '/p/:code/embed/captioned/', access: 'public', handle: embedPage },
	{ method: 'GET', path: '/p/:code/embed/', access: 'public', handle: embedPage },
	{ method: 'GET', path: '/reel/:code/embed/captioned/', access: 'public', handle: embedPage },
	{
		method: 'GET',
		path: '/:username/',
		access: 'public',
		handle(context) {
			const username = context.params.username ?? ''
			const user = /^[A-Za-z0-9._]{1,30}$/.test(username) ? context.state.userByUsername(username) : undefined
			return user ? profilePage(context, user) : notFoundPage()
		}
	}
]
