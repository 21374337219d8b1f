/**
 * Analytics: one account's figures from its recent posts (`GET /api/analytics/profile/{username}`):
 * summary cards, the media-type mix, a weekday x hour heat map of posting times (UTC), top posts as
 * images, and the top hashtags and mentions.
 */

import { externalLink, h, replaceChildren, safeImageUrl, safeLinkUrl } from '../../common/dom'
import { horizontalBars } from '../components/charts'
import { errorBox } from '../components/error-box'
import { apiGet } from '../lib/api'
import { formatCount } from '../lib/format'
import { type Panel, panelFrame } from '../lib/panel'
import { field, numberText, postsInput, requestForm, requireName, textInput } from './insights-common'

/** A top post as the API gives it. */
export interface TopPost {
	code: string
	url: string
	thumbnail_url: string | null
	caption_text: string
	like_count: number
	comment_count: number
	taken_at: number
}

/** The part of the analytics answer the view shows. */
interface Figures {
	username: string
	full_name: string
	follower_count: number
	posts_analyzed: number
	avg_likes: number | null
	avg_comments: number | null
	engagement_rate: number | null
	posts_per_week: number | null
	heatmap: number[][]
	top_posts: TopPost[]
	top_hashtags: { term: string; posts: number }[]
	top_mentions: { term: string; posts: number }[]
	media_mix: Record<string, number>
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']

function card(title: string, value: string): HTMLElement {
	return h(
		'article',
		{ className: 'stat-card' },
		h('h2', { className: 'stat-card-title', text: title }),
		h('p', { className: 'stat-card-value', text: value })
	)
}

/**
 * From this share of the busiest hour on, a cell is dark enough for the accent's text colour; below
 * it the number takes the text colour (styles/insights.css, .heat-high).
 */
const HEAT_HIGH = 0.5

/** Posts per weekday and hour as a grid; darker cells had more posts. */
export function heatMap(grid: number[][]): HTMLElement {
	const max = Math.max(1, ...grid.flat())
	const hours = Array.from({ length: 24 }, (_, hour) => hour)
	return h(
		'div',
		{ className: 'table-scroll' },
		h(
			'table',
			{ className: 'heatmap', attrs: { 'aria-label': 'Posts by weekday and hour (UTC)' } },
			h(
				'thead',
				null,
				h(
					'tr',
					null,
					h('th', { text: '' }),
					...hours.map((hour) =>
						h('th', { text: hour % 3 === 0 ? String(hour) : '', attrs: { scope: 'col' } })
					)
				)
			),
			h(
				'tbody',
				null,
				...grid.map((row, day) =>
					h(
						'tr',
						null,
						h('th', { text: WEEKDAYS[day] ?? '', attrs: { scope: 'row' } }),
						...row.map((count, hour) => {
							const heat = count / max
							const cell = h('td', {
								className:
									count === 0 ? 'heat-cell' : `heat-cell heat-on${heat >= HEAT_HIGH ? ' heat-high' : ''}`,
								attrs: {
									title: `${WEEKDAYS[day]} ${String(hour).padStart(2, '0')}:00 UTC: ${count} post${count === 1 ? '' : 's'}`
								},
								text: count > 0 ? String(count) : ''
							})
							// Through the CSSOM: the page's policy refuses style attributes.
							cell.style.setProperty('--heat', heat.toFixed(3))
							return cell
						})
					)
				)
			)
		)
	)
}

/** A top post: its image, likes and comments, and a link. */
export function topPost(post: TopPost): HTMLElement {
	const image = safeImageUrl(post.thumbnail_url)
	const link = safeLinkUrl(post.url)
	return h(
		'figure',
		{ className: 'top-post' },
		image
			? h('img', {
					attrs: { src: image, alt: post.caption_text.slice(0, 80) || `Post ${post.code}`, loading: 'lazy' }
				})
			: h('div', { className: 'top-post-missing', text: 'no image' }),
		h(
			'figcaption',
			null,
			`${formatCount(post.like_count)} likes · ${formatCount(post.comment_count)} comments `,
			link ? externalLink(link, 'open') : null
		)
	)
}

/** A figure that is null without posts (or followers) as a dash, else grouped. */
const decimal = (value: number | null) => (value === null ? '—' : value.toLocaleString('en-US'))

/** The figures as cards, bars, heat map, top posts and terms. */
export function figuresView(figures: Figures): HTMLElement[] {
	const terms = (list: { term: string; posts: number }[], prefix: string) =>
		list.length === 0 ? '—' : list.map((entry) => `${prefix}${entry.term} (${entry.posts})`).join(', ')
	const mix = Object.entries(figures.media_mix).map(([label, value]) => ({
		label,
		value,
		max: Math.max(1, figures.posts_analyzed),
		detail: formatCount(value)
	}))
	return [
		h('h2', {
			className: 'section-title',
			text: `@${figures.username}${figures.full_name ? ` · ${figures.full_name}` : ''}`
		}),
		h(
			'div',
			{ className: 'stat-grid' },
			card('Followers', formatCount(figures.follower_count)),
			card(
				'Engagement rate',
				figures.engagement_rate === null ? '—' : `${figures.engagement_rate.toLocaleString('en-US')} %`
			),
			card('Average likes', decimal(figures.avg_likes)),
			card('Average comments', decimal(figures.avg_comments)),
			card('Posts per week', decimal(figures.posts_per_week)),
			card('Posts analysed', formatCount(figures.posts_analyzed))
		),
		h('h3', { className: 'section-title', text: 'Media mix' }),
		// The section's heading names the bars: no caption saying it again.
		horizontalBars(mix, { title: 'Media mix', emptyText: 'No posts', caption: false }),
		h('h3', { className: 'section-title', text: 'When the posts went out (UTC)' }),
		heatMap(figures.heatmap),
		h('h3', { className: 'section-title', text: 'Top posts' }),
		h('div', { className: 'top-posts' }, ...figures.top_posts.map(topPost)),
		h('p', null, h('strong', { text: 'Top hashtags: ' }), terms(figures.top_hashtags, '#')),
		h('p', null, h('strong', { text: 'Top mentions: ' }), terms(figures.top_mentions, '@'))
	]
}

/** Builds the Analytics panel. */
export function createAnalyticsPanel(): Panel {
	const username = requireName(textInput('username', '', 'luna.explorer'))
	const posts = postsInput()
	const { form, result } = requestForm({
		label: 'Profile analytics',
		fields: [field('Username', username), field('Posts', posts, 'recent posts (1-200)')],
		button: 'Analyse',
		resultClass: 'analytics-result',
		async run(area) {
			const name = username.value.trim().replace(/^@/, '')
			replaceChildren(area, h('p', { className: 'result-empty', text: `Analysing @${name}…` }))
			const answer = await apiGet<Figures>(
				`/api/analytics/profile/${encodeURIComponent(name)}?posts=${encodeURIComponent(numberText(posts, '30'))}`
			)
			if (answer.ok && answer.envelope) replaceChildren(area, ...figuresView(answer.envelope.data))
			else replaceChildren(area, errorBox(answer.code, answer.error))
		}
	})

	const element = panelFrame(
		'analytics',
		'Analytics',
		"An account's figures from its recent posts: engagement, cadence by weekday and hour (UTC), top posts, hashtags and mentions.",
		form,
		result
	)
	return { id: 'analytics', title: 'Analytics', element }
}
