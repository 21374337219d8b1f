/**
 * The simulator's own endpoints under `/__sim/` (never faulted, never logged, no session needed):
 * fault control (`GET|POST|DELETE /__sim/faults`), the request log (`GET|DELETE /__sim/requests`),
 * the clock (`GET /__sim/clock`, `POST /__sim/clock {advance_hours}`), the demo session's state
 * (`GET|POST|DELETE /__sim/session`, body `{"state":"expired"}`), a health check, and generated
 * placeholder images and videos for every media URL in the data set.
 */
import { type Faults, validateFaultRule } from './faults'
import type { LiveWorld } from './live-world'
import { deriveSeed } from './prng'
import type { RequestLog } from './request-log'
import type { SessionSwitch } from './session-switch'

const json = (body: unknown, status = 200) =>
	new Response(JSON.stringify(body), {
		status,
		headers: { 'content-type': 'application/json; charset=utf-8' }
	})

/** A gradient placeholder image whose colours derive from the key; no user text ends up in the SVG. */
function placeholderImage(key: string, searchParams: URLSearchParams): Response {
	const dimension = (name: string, fallback: number) => {
		const value = Number.parseInt(searchParams.get(name) ?? '', 10)
		return Number.isFinite(value) && value > 0 ? Math.min(value, 2048) : fallback
	}
	const size = dimension('s', 0)
	const width = size || dimension('w', 640)
	const height = size || dimension('h', 640)
	const hue = deriveSeed('image', key) % 360
	const svg =
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
		`<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,62%)"/>` +
		`<stop offset="1" stop-color="hsl(${(hue + 60) % 360},65%,42%)"/></linearGradient></defs>` +
		`<rect width="100%" height="100%" fill="url(#g)"/></svg>`
	return new Response(svg, {
		headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' }
	})
}

/**
 * A placeholder video: a short MP4 header (an `ftyp` box) and a `free` box of bytes derived from
 * the key, so every video URL gives its own stable file. Not playable; enough for downloads.
 */
function placeholderVideo(key: string): Response {
	const seed = deriveSeed('video', key)
	const filler = new Uint8Array(1024).map((_, index) => (seed + index * 31) & 0xff)
	const box = (type: string, body: Uint8Array) => {
		const bytes = new Uint8Array(8 + body.length)
		new DataView(bytes.buffer).setUint32(0, bytes.length)
		bytes.set(new TextEncoder().encode(type), 4)
		bytes.set(body, 8)
		return bytes
	}
	const ftyp = box('ftyp', new TextEncoder().encode('isom\0\0\x02\0isomiso2mp41'))
	return new Response(new Blob([ftyp, box('free', filler)]), {
		headers: { 'content-type': 'video/mp4', 'cache-control': 'public, max-age=86400' }
	})
}

async function faultsEndpoint(request: Request, faults: Faults): Promise<Response> {
	if (request.method === 'GET') return json({ rules: faults.list(), status: 'ok' })
	if (request.method === 'DELETE') {
		faults.clear()
		return json({ status: 'ok' })
	}
	if (request.method !== 'POST') return json({ message: 'Method not allowed', status: 'fail' }, 405)
	try {
		const body = (await request.json()) as unknown
		const rules = (Array.isArray(body) ? body : [body]).map(validateFaultRule)
		faults.set(rules)
		return json({ rules: faults.list(), status: 'ok' })
	} catch (error) {
		const message = error instanceof Error ? error.message : 'invalid fault rule'
		return json({ message: `Invalid fault rule: ${message}`, status: 'fail' }, 400)
	}
}

/** `GET /__sim/clock` reads the clock; `POST /__sim/clock {advance_hours}` moves it forward. */
async function clockEndpoint(request: Request, live: () => LiveWorld): Promise<Response> {
	if (request.method === 'GET') return json({ ...live().reading(), status: 'ok' })
	if (request.method !== 'POST') return json({ message: 'Method not allowed', status: 'fail' }, 405)
	let hours: unknown
	try {
		hours = ((await request.json()) as { advance_hours?: unknown } | null)?.advance_hours
	} catch {
		return json({ message: 'Invalid JSON body: expected {"advance_hours": number}', status: 'fail' }, 400)
	}
	try {
		if (typeof hours !== 'number') throw new RangeError('advance_hours must be a number')
		return json({ ...live().advance(hours), status: 'ok' })
	} catch (error) {
		return json({ message: (error as Error).message, status: 'fail' }, 400)
	}
}

/** `GET` the demo session's state, `POST {"state": "valid|expired|challenge"}` to set it, `DELETE` to make it valid again. */
async function sessionEndpoint(request: Request, session: SessionSwitch): Promise<Response> {
	if (request.method === 'DELETE') session.set('valid')
	else if (request.method === 'POST') {
		try {
			const body = (await request.json()) as { state?: unknown } | null
			session.set(body?.state)
		} catch (error) {
			const message = error instanceof TypeError ? error.message : 'the body must be JSON'
			return json({ message: `Invalid session state: ${message}`, status: 'fail' }, 400)
		}
	} else if (request.method !== 'GET') return json({ message: 'Method not allowed', status: 'fail' }, 405)
	return json({ state: session.state, status: 'ok' })
}

/** Answers a `/__sim/...` request; `live` gives the instance's clock (its data set is built on first use). */
export async function handleControl(
	request: Request,
	url: URL,
	faults: Faults,
	requests: RequestLog,
	live: () => LiveWorld,
	session: SessionSwitch
): Promise<Response> {
	const path = url.pathname
	if (path === '/__sim/clock' || path === '/__sim/clock/') return clockEndpoint(request, live)
	if (path === '/__sim/faults' || path === '/__sim/faults/') return faultsEndpoint(request, faults)
	if (path === '/__sim/session' || path === '/__sim/session/') return sessionEndpoint(request, session)
	if (path === '/__sim/requests' || path === '/__sim/requests/') {
		if (request.method === 'DELETE') {
			requests.clear()
			return json({ status: 'ok' })
		}
		return json({
			total: requests.total,
			by_path: requests.byPath(),
			recent: requests.records().slice(-100),
			status: 'ok'
		})
	}
	if (path === '/__sim/health' || path === '/__sim/health/') return json({ status: 'ok' })
	const image = /^\/__sim\/img\/[a-z]+\/([^/]+)\.svg$/.exec(path)
	if (image && request.method === 'GET') return placeholderImage(image[1] as string, url.searchParams)
	const video = /^\/__sim\/video\/([^/]+)\.mp4$/.exec(path)
	if (video && request.method === 'GET') return placeholderVideo(video[1] as string)
	return json({ message: 'Not found', status: 'fail' }, 404)
}
