/**
 * The simulated Instagram (docs/architecture.md, "Demo mode and the simulator"): Instagram's upstream
 * paths on one loopback origin, fed
 * by the seeded data set, with Instagram's session check, cursors, error bodies and injectable faults.
 *
 * Served paths. Auth: S = `sessionid` cookie required (POSTs also need the `csrftoken` cookie and a
 * matching `x-csrftoken` header), A = anonymous allowed. Cursor: the query/variable a page takes.
 * Paths are matched with or without the trailing slash.
 *
 * | method | path                                                  | auth | cursor (response field)                     |
 * |--------|-------------------------------------------------------|------|---------------------------------------------|
 * | GET    | /api/v1/users/web_profile_info/?username=             | A    | -                                           |
 * | GET    | /api/v1/users/{pk}/info/                              | S    | -                                           |
 * | GET    | /api/v1/users/search/?q=                              | S    | -                                           |
 * | GET    | /api/v1/web/search/topsearch/?query=&context=         | S    | - (context blended or user)                 |
 * | GET    | /api/v1/tags/search/?q=                               | S    | -                                           |
 * | GET    | /api/v1/tags/{tag}/info/                              | S    | -                                           |
 * | GET    | /api/v1/fbsearch/places/?query=                       | S    | -                                           |
 * | GET    | /api/v1/discover/topical_explore/                     | S    | max_id (next_max_id; 24 per page)           |
 * | GET    | /api/v1/media/{pk}/info/                              | S    | -                                           |
 * | GET    | /api/v1/media/{pk}/likers/                            | S    | -                                           |
 * | GET    | /api/v1/media/{pk}/comments/                          | S    | min_id (next_min_id, a JSON text; 15/page)  |
 * | GET    | /api/v1/media/{pk}/comments/{c}/child_comments/       | S    | min_id (next_min_child_cursor; 2/page)      |
 * | POST   | /api/v1/media/{pk}/like/, /unlike/                    | S    | - (also /api/v1/web/likes/{pk}/like/, unlike)|
 * | POST   | /api/v1/media/{pk}/comment/ form comment_text         | S    | - (also /api/v1/web/comments/{pk}/add/)     |
 * | GET    | /api/v1/feed/user/{pk}/?count=                        | S    | max_id (next_max_id = last item's id)       |
 * | GET    | /api/v1/feed/tag/{tag}/ (posts in sections[])         | S    | max_id (next_max_id)                        |
 * | GET    | /api/v1/feed/liked/, /api/v1/feed/saved/posts/        | S    | max_id (next_max_id)                        |
 * | GET    | /api/v1/feed/user/{pk}/story/                         | S    | -                                           |
 * | GET    | /api/v1/highlights/{pk}/highlights_tray/              | S    | -                                           |
 * | GET    | /api/v1/feed/reels_tray/                              | S    | -                                           |
 * | GET    | /api/v1/friendships/{pk}/followers/?count=            | S    | max_id (next_max_id; big_list)              |
 * | GET    | /api/v1/friendships/{pk}/following/?count=            | S    | max_id (next_max_id; big_list)              |
 * | GET    | /api/v1/friendships/{pk}/mutual_followers/            | S    | max_id (next_max_id)                        |
 * | GET    | /api/v1/friendships/show/{pk}/                        | S    | -                                           |
 * | GET    | /api/v1/friendships/pending/                          | S    | -                                           |
 * | POST   | /api/v1/friendships/create/{pk}/, /destroy/{pk}/      | S    | - (also /api/v1/web/friendships/{pk}/follow/, unfollow/) |
 * | GET    | /api/v1/accounts/current_user/?edit=true              | S    | -                                           |
 * | GET    | /api/v1/users/blocked_list/                           | S    | max_id (next_max_id; 3 per page)            |
 * | GET    | /api/v1/restrict_action/restricted_users/             | S    | max_id (next_max_id; 2 per page)            |
 * | GET    | /api/v1/session/login_activity/                       | S    | -                                           |
 * | GET    | /api/v1/accounts/privacy_and_security_info/           | S    | -                                           |
 * | GET    | /api/v1/accounts/account_information_settings/        | S    | -                                           |
 * | POST   | /api/v1/news/inbox/                                   | S    | form continuation_token (11 per page)       |
 * | GET    | /api/v1/direct_v2/inbox/?limit=                       | S    | cursor (inbox.oldest_cursor; limit <= 20)   |
 * | GET    | /api/v1/direct_v2/threads/{thread_id}/                | S    | -                                           |
 * | POST   | /api/v1/direct_v2/threads/broadcast/text/ form recipient_users='[["pk"]]' or thread_ids, text | S | - |
 * | GET    | /api/v1/web/fxcal/ig_sso_users/                       | A    | - (warm-up: x-ig-set-www-claim, server_revision) |
 * | POST   | /api/v1/web/accounts/one_tap_web_login/               | A    | - (refresh: ok only for the demo session)   |
 * | GET    | /graphql/query/?query_hash=&variables=                | A/S  | after (page_info.end_cursor)                |
 * |        |   c9100bf9… user by {id} or {username} (A); 69cba403… public posts {id, first, after} (A);          |
 * |        |   d5d763b1… liked (S); 2ce1d673… saved (S)                                                        |
 * | POST   | /graphql/query form doc_id, variables                 | S    | after (page_info.end_cursor)                |
 * |        |   9506655819362310 tag feed; 9863315953735856 liked; 26523442937261068 saved; 10015901848480474 media |
 * |        |   connections serve at most: tag 9, liked 16, saved 3, public posts 50 per page                     |
 * | POST   | /api/graphql form doc_id, variables                   | A/S  | as above; only 10015901848480474 anonymous  |
 * | GET    | /{username}/                                          | A    | - (HTML profile page)                       |
 * | GET    | /p/{shortcode}/embed/captioned/ (and /embed/)         | A    | - (HTML embed)                              |
 * | *      | /__sim/faults, /__sim/requests, /__sim/clock, /__sim/session, /__sim/health, /__sim/img/… | - | simulator control, never faulted; see control-guard.ts |
 */
import { handleControl } from './control'
import { controlGuard } from './control-guard'
import { DEMO_CREDENTIALS, type DemoCredentials } from './credentials'
import { megaFollowerCount } from './dataset-mega'
import { answerWithPageFault, PAGE_FAULTS } from './fault-bodies'
import { type FaultController, type FaultKind, Faults } from './faults'
import { hasSession } from './http'
import { DEFAULT_SEED } from './presets'
import { RequestLog } from './request-log'
import { applyFault, delay, routeRequest, type Waiters } from './server-handle'
import { SessionSwitch } from './session-switch'
import { SimulatorState } from './state'

/** Options of {@link startSimulator}. */
export interface SimulatorOptions {
	/** Port to listen on; 0 (default) picks a free one. */
	port?: number
	/** Host to bind (default 127.0.0.1). */
	host?: string
	/** Data set seed (default {@link DEFAULT_SEED}); the same seed gives the same data. */
	seed?: number
	/**
	 * `true`: the control routes (`/__sim/`, but health checks and media) demand a random token,
	 * exposed as `controlToken` (demo mode's in-process simulator). Default: open on loopback,
	 * guarded only against other origins (a standalone simulator is a tool for tests).
	 */
	controlToken?: boolean
}

/** A running simulated Instagram. */
export interface Simulator {
	/** Origin without a trailing slash, e.g. `http://127.0.0.1:40123`. */
	readonly url: string
	readonly port: number
	readonly seed: number
	/** Stops listening and ends hanging requests. */
	stop(): Promise<void>
	/** Fault injection (also over HTTP at `/__sim/faults`). */
	readonly faults: FaultController
	/** This instance's live data: the shared data set plus its own writes. */
	readonly state: SimulatorState
	/** The demo session it accepts. */
	readonly credentials: DemoCredentials
	/** Upstream requests it answered (also over HTTP at `/__sim/requests`). */
	readonly requests: RequestLog
	/** The token its control routes demand (`Authorization: Bearer`), when started with one. */
	readonly controlToken?: string
	/** Whether the demo session is accepted, expired or challenged (also over HTTP at `/__sim/session`). */
	readonly session: SessionSwitch
}

/** An Instagram-style failure body (`{ message, status: 'fail' }`). */
function failJson(status: number, message: string): Response {
	return Response.json({ message, status: 'fail' }, { status })
}

/** Starts a simulated Instagram on loopback. The data set of a seed is built once per process, on first use. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
	const seed = options.seed ?? DEFAULT_SEED
	// Checked now: the data set is built at the first request, where a bad value would be a 500.
	megaFollowerCount()
	// Built on first use (about 100 ms for the default seed), so a demo server answers its first
	// request (/api/status) before the data set exists; the first upstream request pays for it.
	let built: SimulatorState | undefined
	const state = () => (built ??= new SimulatorState(seed))
	const faults = new Faults(seed)
	const requests = new RequestLog()
	const session = new SessionSwitch()
	const waiters: Waiters = new Set()
	let origin = ''
	let stopping: Promise<void> | undefined
	const host = options.host ?? '127.0.0.1'
	const controlToken = options.controlToken
		? Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
		: undefined
	let boundPort: number | undefined
	const guardControl = controlGuard({ host, port: () => boundPort, token: controlToken })
	const server = Bun.serve({
		port: options.port ?? 0,
		hostname: host,
		// Long latency faults must not be cut by the idle timer; hangs switch it off per request.
		idleTimeout: 120,
		// Never Bun's development error page (it shows the working directory and source excerpts).
		development: false,
		// Off: Bun turns SO_REUSEPORT on without `development`, and a second simulator on the same
		// port would then start and share the requests (each with its own state).
		reusePort: false,
		error: (error) => failJson(500, `Internal error: ${error.message.split('\n')[0]}`),
		async fetch(request, bunServer) {
			if (!URL.canParse(request.url)) return failJson(400, 'Bad request: malformed Host header')
			const url = new URL(request.url)
			if (url.pathname.startsWith('/__sim/')) {
				return (
					guardControl(request, url) ??
					handleControl(request, url, faults, requests, () => state().live, session)
				)
			}
			let faultKind: FaultKind | null = null
			let malformed = false
			let response: Response | null = null
			const route = () => routeRequest(request, url, { state: state(), origin, session })
			for (const fault of faults.take(url.pathname + url.search)) {
				faultKind = fault.kind
				if (fault.kind === 'latency' || fault.kind === 'hang') bunServer.timeout(request, 0)
				if (fault.kind === 'latency') await delay(fault.latencyMs ?? 1000, request, waiters)
				else if (fault.kind === 'malformed') malformed = true
				else if (PAGE_FAULTS.has(fault.kind)) response = await answerWithPageFault(fault, request, url, route)
				else response = await applyFault(fault, request, url, origin, waiters)
			}
			response ??= await route()
			if (malformed) {
				const text = await response.text()
				response = new Response(text.slice(0, Math.max(1, Math.floor(text.length / 2))), {
					status: 200,
					headers: { 'content-type': 'application/json; charset=utf-8' }
				})
			}
			requests.record({
				method: request.method,
				path: url.pathname,
				query: url.search,
				status: response.status,
				fault: faultKind,
				authenticated: hasSession(request),
				at: Date.now()
			})
			return response
		}
	})
	origin = new URL(String(server.url)).origin
	boundPort = server.port
	return {
		url: origin,
		port: server.port ?? 0,
		seed,
		faults,
		get state() {
			return state()
		},
		credentials: DEMO_CREDENTIALS,
		requests,
		controlToken,
		session,
		stop() {
			// Idempotent: a second call waits for the same shutdown.
			stopping ??= (async () => {
				for (const wake of [...waiters]) wake()
				await server.stop(true)
			})()
			return stopping
		}
	}
}
