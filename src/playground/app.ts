/**
 * Builds the playground app (docs/architecture.md, "Request path"): guards, body parsing, the single error handler, the
 * request history, then one Elysia instance per route group. Building has no side effects: nothing
 * listens here (`serve.ts` does), so tests drive the app through `app.handle`.
 *
 * Hook order matters (docs/architecture.md, "Errors"): `onError` and `onAfterHandle` are attached before the
 * `.use(routes)` calls, or they would not cover those routes.
 */
import { type AnyElysia, Elysia } from 'elysia'
import type { PermissionLevel } from '../agent/permissions'
import { API_GROUPS, type InstagramClient } from '../client/client'
import { createClientFromEnv } from '../client/env'
import type { SimulatorClock } from '../demo'
import { JobManager } from '../jobs/manager'
import { JobStore } from '../jobs/store'
import { jsonBody, MiB } from '../server/body'
import { toFailure } from '../server/errors'
import { urlOf } from '../server/request-url'
import { methodsFor } from '../server/route-methods'
import { type SecurityOptions, securityGuard } from '../server/security'
import { openStore } from '../store/db'
import { ListStore } from '../watch/lists'
import { WatchScheduler } from '../watch/scheduler'
import { WatchStore } from '../watch/store'
import { HISTORY_ID_HEADER, PlaygroundActivity } from './activity'
import { envelopeResponse, outcomeOf } from './app-support'
import { fail } from './envelope'
import type { DocumentedRoute } from './openapi/document'
import { LOAD_MORE_HEADER } from './result-chain'
import { accountRoutes } from './routes/account'
import { aiFallbackRoutes } from './routes/ai-fallback'
import { analyticsRoutes } from './routes/analytics'
import { demoClockRoutes } from './routes/demo-clock'
import { directRoutes } from './routes/direct'
import { exportRoutes } from './routes/export'
import { feedRoutes } from './routes/feed'
import { friendshipsRoutes } from './routes/friendships'
import { hashtagsRoutes } from './routes/hashtags'
import { jobsRoutes } from './routes/jobs'
import { listTargetRoutes } from './routes/list-targets'
import { listsRoutes } from './routes/lists'
import { mediaRoutes } from './routes/media'
import { notificationsRoutes } from './routes/notifications'
import { OPENAPI_PUBLIC_PATHS, openapiRoutes } from './routes/openapi'
import { publicRoutes } from './routes/public'
import { savedRoutes } from './routes/saved'
import { searchRoutes } from './routes/search'
import { sessionRoutes } from './routes/session'
import { storiesRoutes } from './routes/stories'
import { systemRoutes } from './routes/system'
import { upstreamMethodGuard } from './routes/upstream-methods'
import { usersRoutes } from './routes/users'
import { watchesRoutes } from './routes/watches'
import { SavedStore } from './saved-store'
import { uiPublicPaths, uiRoutes } from './ui'

/** Set on a successful data answer while the Instagram session is `expired` or `challenge`. */
export const SESSION_HEADER = 'x-smkit-session'

/** What the AI side hands the playground (filled by the agent helper; optional). */
export interface PlaygroundAi {
	/** True when a provider is configured and usable; reported by /api/status. */
	available: boolean
	/** Provider name, e.g. `gemini`, or null when none is configured. */
	provider: string | null
	/** Model in use (`auto` resolved when known), or null. */
	model: string | null
	/** The host of a model endpoint other than the provider's own, said at start-up. */
	endpoint?: string
	/** Why AI chat is off (what to set or fix), when it is. */
	reason?: string
	/**
	 * Builds the `/api/ai/*` routes (full paths). Mounted after the playground's hooks, so errors
	 * become envelopes and requests enter the history. Without it, `/api/ai/*` answers 503.
	 */
	routes?: (context: PlaygroundContext) => AnyElysia
}

/** Everything a playground app is built from. */
export interface PlaygroundDeps {
	/** The Instagram client every route calls. */
	ig: InstagramClient
	/** Where saved results go (default `demo/saved`, relative to the working directory). */
	savedDir?: string
	/** Demo mode: reported by /api/status and shown by the UI. */
	demo?: boolean
	/**
	 * Demo mode: the origin serving the simulated Instagram's pictures now (`/api/status`
	 * `demo_pictures`); records stored by an earlier demo process name the port of its simulator.
	 */
	demoPictures?: string
	/** When the server started (default: now); /api/status reports the uptime from it. */
	startedAt?: Date
	/** AI chat, when available (see `PlaygroundAi`). */
	ai?: PlaygroundAi
	/** Agent permission level for AI chat (default `ask_once`). */
	permission?: PermissionLevel
	/** Host/port/token/CORS checks (default: loopback host names, any port, no token). */
	security?: SecurityOptions
	/** Receives log lines for unexpected errors (default console.error). Never given secrets. */
	log?: (line: string) => void
	/** Runs `/api/jobs` (default: a manager over an in-memory store, gone when the app is). */
	jobs?: JobManager
	/** The environment file Connect account stores a session in (none: connecting is refused). */
	envPath?: string
	/** Runs `/api/watches` (default: one over the jobs' store; building the app never starts it). */
	watches?: WatchScheduler
	/** Demo mode: the simulator's clock behind `/api/demo/clock` (absent: those routes answer 404). */
	demoClock?: SimulatorClock
	/** How long `POST /api/session/check` waits for Instagram, retries included (default 20 s). */
	sessionCheckTimeoutMs?: number
}

/** What route factories get: the deps plus the pieces the app builds from them. */
export interface PlaygroundContext {
	ig: InstagramClient
	deps: PlaygroundDeps
	saved: SavedStore
	activity: PlaygroundActivity
	startedAt: Date
	jobs: JobManager
	watches: WatchScheduler
	/** Named lists of accounts, in the jobs' store. */
	lists: ListStore
}

/** Body limits (docs/api-contract.md, "Limits"): 1 MiB, 10 MiB for the CSV export. */
const bodyLimits = { limit: MiB, limits: { '/api/export/csv': 10 * MiB } }

/** Creates the playground Elysia app for the given dependencies (no listen). */
export function createPlaygroundApp(deps: PlaygroundDeps) {
	const jobs =
		deps.jobs ?? new JobManager({ jobs: new JobStore(openStore(':memory:')), ig: deps.ig, log: deps.log })
	const context: PlaygroundContext = {
		ig: deps.ig,
		deps,
		saved: new SavedStore(deps.savedDir ?? 'demo/saved'),
		activity: new PlaygroundActivity(),
		startedAt: deps.startedAt ?? new Date(),
		jobs,
		watches:
			deps.watches ??
			new WatchScheduler({
				watches: new WatchStore(jobs.jobs.store, { demo: jobs.jobs.demo }),
				jobs: jobs.jobs,
				ig: deps.ig,
				log: deps.log
			}),
		lists: new ListStore(jobs.jobs.store)
	}
	const { activity } = context
	const keepText = activity.serialised.bind(activity)
	const app = new Elysia()
		.use(
			securityGuard({
				...deps.security,
				publicPaths: [...OPENAPI_PUBLIC_PATHS, ...uiPublicPaths(), ...(deps.security?.publicPaths ?? [])]
			})
		)
		.use(
			upstreamMethodGuard({
				routes: (): readonly DocumentedRoute[] => app.routes,
				isDataPath,
				// Answered before the hooks below run: recorded here like any refused request.
				refused(request, response, error) {
					activity.begin(request)
					const entry = activity.finish(request, { status: response.status, success: false, error })
					if (entry) response.headers.set(HISTORY_ID_HEADER, String(entry.id))
				}
			})
		)
		.onRequest(function beginActivity({ request }) {
			// Not an arrow: Elysia awaits a hook whose source looks like `=> call(`, minified too.
			activity.begin(request)
		})
		.onError(({ code, error, request, set }) => {
			const url = urlOf(request)
			const requestLine = `${request.method} ${url.pathname}`
			let failure = toFailure(error, code, {
				server: 'playground',
				loggedIn: deps.ig.loggedIn,
				log: deps.log,
				request: requestLine
			})
			if (code === 'NOT_FOUND' && failure.body.code === 'not_found') {
				// Elysia answers 404 for a known path with the wrong method; the route table tells them apart.
				const allowed = methodsFor(app.routes, url.pathname)
				failure =
					allowed.length > 0
						? {
								status: 405,
								body: fail(`Method ${request.method} not allowed on ${url.pathname}`, 'method_not_allowed'),
								headers: { allow: allowed.join(', ') }
							}
						: {
								...failure,
								body: fail(
									`Not found: ${request.method} ${url.pathname} (every endpoint is listed at /openapi)`,
									'not_found'
								)
							}
			}
			set.status = failure.status
			Object.assign(set.headers, failure.headers)
			const entry = activity.finish(request, {
				status: failure.status,
				success: false,
				error: failure.body.error
			})
			if (entry) set.headers[HISTORY_ID_HEADER] = String(entry.id)
			return failure.body
		})
		.onAfterHandle(({ request, responseValue, set }) => {
			const outcome = outcomeOf(responseValue, set.status)
			const url = urlOf(request)
			const entry = activity.finish(request, outcome)
			if (entry) set.headers[HISTORY_ID_HEADER] = String(entry.id)
			if (entry && outcome.success && outcome.isData && isDataPath(url.pathname)) {
				// Instagram may answer a call and end the session with it (an emptied session cookie):
				// the page learns it from this answer, not only from the next refused call.
				const session = deps.ig.session.state
				if (session === 'expired' || session === 'challenge') set.headers[SESSION_HEADER] = session
				const loadMore = request.headers.has(LOAD_MORE_HEADER)
				activity.keepResult(
					entry.id,
					activity.chains.add(url, `${entry.method} ${entry.path}`, responseValue, loadMore)
				)
			}
		})
		// Not an arrow: Elysia awaits a hook whose source looks like `=> call(`, minified too.
		.mapResponse(function serializeEnvelope({ responseValue, set }) {
			const response = envelopeResponse(responseValue, set, keepText)
			if (response !== undefined) return response
		})
		.use(jsonBody(bodyLimits))
		.use(openapiRoutes({ routes: (): readonly DocumentedRoute[] => app.routes, callsInstagram: isDataPath }))
		.use(uiRoutes(context))
		.use(systemRoutes(context))
		.use(sessionRoutes(context))
		.use(savedRoutes(context))
		.use(exportRoutes())
		.use(jobsRoutes(context))
		.use(watchesRoutes(context))
		.use(demoClockRoutes(context))
		.use(listsRoutes(context))
		.use(listTargetRoutes(context))
		.use(deps.ai?.routes ? deps.ai.routes(context) : aiFallbackRoutes())
		.use(usersRoutes(context))
		.use(mediaRoutes(context))
		.use(feedRoutes(context))
		.use(searchRoutes(context))
		.use(storiesRoutes(context))
		.use(friendshipsRoutes(context))
		.use(accountRoutes(context))
		.use(publicRoutes(context))
		.use(hashtagsRoutes(context))
		.use(notificationsRoutes(context))
		.use(directRoutes(context))
		.use(analyticsRoutes(context))
	return app
}

/** The app type, for extensions. */
export type PlaygroundApp = ReturnType<typeof createPlaygroundApp>

/** The API groups' routes and the analytics built on them: the results `POST /api/save` keeps. */
const dataGroups = [...API_GROUPS, 'analytics', 'compare']
const dataPrefix = new RegExp(`^/api/(${dataGroups.join('|')})(/|$)`)
/** A list's comparison: the same answer as `/api/compare` of its members. */
const listCompare = /^\/api\/lists\/[^/]+\/compare$/

/** Whether a path is one of the API-group endpoints (and analytics) whose results `POST /api/save` keeps. */
export function isDataPath(pathname: string): boolean {
	return dataPrefix.test(pathname) || listCompare.test(pathname)
}

/** Options of `createPlayground`: programmatic use (docs/architecture.md, "Product"). */
export interface PlaygroundOptions extends Omit<PlaygroundDeps, 'ig' | 'security'> {
	/** Environment file with Instagram credentials (default `.env`; missing file = not logged in). */
	envPath?: string
	/** Use this client instead of building one from the environment file. */
	client?: InstagramClient
	/** Host the app will be served on (default 127.0.0.1); other hosts need `token`. */
	host?: string
	/** Port the app will be served on (Host header check); omitted = any port. */
	port?: number
	/** Access token; required when `host` is not loopback. */
	token?: string
	/** A browser origin allowed to call the API (CORS). */
	corsOrigin?: string
}

/**
 * The playground as a library: the app (not listening) and `getClient()`, the accessor extensions
 * use to reach the client instance. Add routes to `app`, then `app.listen(port)`.
 */
export function createPlayground(options: PlaygroundOptions = {}) {
	const { envPath, client, host, port, token, corsOrigin, ...rest } = options
	const ig = client ?? createClientFromEnv(envPath ?? '.env')
	const app = createPlaygroundApp({
		...rest,
		ig,
		envPath: envPath ?? '.env',
		security: { host, port, token, corsOrigin }
	})
	return { app, getClient: (): InstagramClient => ig }
}
