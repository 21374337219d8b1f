/**
 * System endpoints (docs/api-contract.md, "System endpoints"): `/api/status`, `/api/history`, `/api/dashboard`. The UI polls them,
 * so they are neither counted nor recorded in the history (see `activity.ts`).
 */
import { Elysia, t } from 'elysia'
import packageJson from '../../../package.json'
import { SuccessEnvelopeOf } from '../../server/envelope'
import type { PlaygroundContext } from '../app'
import { ok } from '../envelope'
import { documented } from './docs'

/** `/api/status` data. */
export const StatusData = t.Object(
	{
		status: t.Literal('ok'),
		version: t.String(),
		uptime_seconds: t.Integer({ minimum: 0 }),
		total_requests: t.Integer({ minimum: 0 }),
		total_errors: t.Integer({ minimum: 0 }),
		client_ready: t.Boolean({
			description: 'Logged-in endpoints can be expected to work: the session is valid or not yet checked'
		}),
		logged_in: t.Boolean({ description: 'Instagram credentials are configured' }),
		session: t.Union(
			['valid', 'expired', 'challenge', 'unchecked', 'none'].map((state) => t.Literal(state)),
			{ description: "What Instagram's last answer to an authenticated request said about the session" }
		),
		username: t.Union([t.String(), t.Null()], { description: 'The account, when the session is valid' }),
		session_checked_at: t.Union([t.String({ format: 'date-time' }), t.Null()]),
		speed: t.String({ description: 'Speed mode: safe, normal, fast or unlimited' }),
		proxies: t.Union(
			[
				t.Object({
					mode: t.String(),
					total: t.Integer(),
					available: t.Integer({ description: 'Proxies not taken out after failures' })
				}),
				t.Null()
			],
			{ description: 'Proxies in use (never their addresses or credentials here), or null' }
		),
		demo: t.Boolean({ description: 'Serving the built-in simulated Instagram' }),
		demo_pictures: t.Union([t.String(), t.Null()], {
			description:
				"Demo mode: the origin serving the simulated pictures now (a record stored earlier may name another simulator's port; its path is the same); null outside demo mode"
		}),
		ai_available: t.Boolean(),
		ai_provider: t.Union([t.String(), t.Null()]),
		ai_model: t.Union([t.String(), t.Null()])
	},
	{ title: 'Status' }
)

/** One `/api/history` entry. */
export const HistoryEntrySchema = t.Object(
	{
		id: t.Integer(),
		method: t.String(),
		path: t.String({ description: 'Path with query string (a token parameter is removed)' }),
		status: t.Integer(),
		success: t.Boolean(),
		duration_ms: t.Number(),
		timestamp: t.String({ format: 'date-time' }),
		message: t.Optional(t.String()),
		error: t.Optional(t.String())
	},
	{ title: 'HistoryEntry' }
)

/** `/api/dashboard` data: the client's own statistics and the playground's counters. */
export const DashboardData = t.Object(
	{
		client: t.Record(t.String(), t.Unknown(), {
			description:
				'ig.stats.snapshot(): upstream requests, latency, errors the callers got, per_minute (the last 60 minutes)...'
		}),
		playground: t.Object({
			uptime_seconds: t.Integer(),
			total_requests: t.Integer(),
			total_errors: t.Integer(),
			history_entries: t.Integer()
		})
	},
	{ title: 'Dashboard' }
)

/** The system route group. */
export const systemRoutes = ({ ig, deps, activity, startedAt }: PlaygroundContext) => {
	const uptime = () => Math.max(0, Math.floor((Date.now() - startedAt.getTime()) / 1000))
	return new Elysia({ prefix: '/api' })
		.get(
			'/status',
			() => {
				const session = ig.session.report()
				const proxies = ig.proxies?.figures()
				return ok(
					{
						status: 'ok' as const,
						version: packageJson.version,
						uptime_seconds: uptime(),
						total_requests: activity.totalRequests,
						total_errors: activity.totalErrors,
						client_ready: session.session === 'valid' || session.session === 'unchecked',
						logged_in: ig.loggedIn,
						session: session.session,
						username: session.username,
						session_checked_at: session.checked_at,
						speed: ig.speed,
						proxies: proxies
							? {
									mode: ig.proxies?.mode ?? 'rotate',
									total: proxies.length,
									available: proxies.filter((proxy) => proxy.available).length
								}
							: null,
						demo: Boolean(deps.demo),
						demo_pictures: deps.demo ? (deps.demoPictures ?? null) : null,
						ai_available: deps.ai?.available ?? false,
						ai_provider: deps.ai?.provider ?? null,
						ai_model: deps.ai?.model ?? null
					},
					'Playground is running'
				)
			},
			documented('System', 'Server status, uptime, request counts, AI availability', StatusData)
		)
		.get(
			'/history',
			() => {
				const entries = activity.entries()
				return ok(entries, `Request history: ${entries.length} entries`)
			},
			documented('System', 'Last 50 requests, newest first', t.Array(HistoryEntrySchema))
		)
		.get(
			'/dashboard',
			() =>
				ok(
					{
						client: ig.stats.snapshot(),
						playground: {
							uptime_seconds: uptime(),
							total_requests: activity.totalRequests,
							total_errors: activity.totalErrors,
							history_entries: activity.entries().length
						}
					},
					'Dashboard statistics'
				),
			documented('System', 'Client statistics and playground counters', DashboardData)
		)
}

/** Envelope schema of `/api/status` (for tests and docs). */
export const StatusEnvelope = SuccessEnvelopeOf(StatusData)
