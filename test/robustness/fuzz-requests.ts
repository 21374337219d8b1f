/**
 * Request generator of the playground fuzzer: random methods, paths from the app's own route table
 * with mutated parameters, random queries, headers and bodies (valid, wrong-typed, malformed,
 * deeply nested and oversized JSON). Everything derives from a seeded generator.
 */
import { DEMO_PRESETS } from '../../src/simulator/presets'
import type { SeededRandom } from './support'

/** A route as Elysia lists it. */
export interface RouteEntry {
	method: string
	path: string
}

/** One generated request, described well enough to repeat it. */
export interface FuzzRequest {
	method: string
	url: string
	headers: Record<string, string>
	body?: string
	/** What kind of body was sent (for failure messages). */
	bodyKind: string
}

const methods = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND']

/** Values that should work, by parameter name. */
const validValues: Record<string, readonly string[]> = {
	username: [DEMO_PRESETS.luna.username, DEMO_PRESETS.xss.username, DEMO_PRESETS.privateAccount.username],
	user_pk: [DEMO_PRESETS.luna.pk, DEMO_PRESETS.privateAccount.pk, DEMO_PRESETS.viewer.pk],
	user_id: [DEMO_PRESETS.luna.pk, DEMO_PRESETS.xss.pk],
	media_pk: [
		...DEMO_PRESETS.media.map((media) => media.pk),
		`${DEMO_PRESETS.media[0].pk}_${DEMO_PRESETS.luna.pk}`
	],
	hashtag: [...DEMO_PRESETS.hashtags],
	tag: [...DEMO_PRESETS.hashtags],
	filename: ['fuzz', 'fuzz.json', 'missing-file']
}

/** Hostile or malformed path segments (already URL-safe or deliberately not). */
const hostileSegments = [
	'',
	'%',
	'%zz',
	'%00',
	'%2e%2e%2f%2e%2e%2fetc%2fpasswd',
	'..%2F..%2Fpackage.json',
	'%252e%252e%252f',
	'a'.repeat(5000),
	'9'.repeat(40),
	'-1',
	'0',
	'1e309',
	'18446744073709551616',
	'%F0%9F%98%80',
	'%C3%28',
	'%ED%A0%80',
	'%3Cscript%3Ealert(1)%3C%2Fscript%3E',
	'null',
	'undefined',
	'__proto__',
	'constructor',
	'a%20b',
	'.json',
	'x.json.json',
	'%0d%0aSet-Cookie:%20x=1'
]

const queryKeys = ['q', 'count', 'cursor', 'url', 'token', 'query', '__proto__', 'x']
const queryValues = [
	'1',
	'12',
	'50',
	'200',
	'1000',
	'1001',
	'0',
	'-5',
	'1.5',
	'abc',
	'',
	'1e3',
	'99999999999999999999',
	'luna',
	'%',
	'%FF',
	'a'.repeat(3000),
	'{"a":1}',
	'https://www.instagram.com/p/DVUVYxwAOOz/',
	'javascript:alert(1)',
	'QVFBc2',
	'[object Object]'
]

const contentTypes = [
	'application/json',
	'application/json; charset=utf-8',
	'text/plain',
	'application/x-www-form-urlencoded',
	'multipart/form-data; boundary=x',
	'application/xml',
	'',
	'application/json; charset=latin1',
	'APPLICATION/JSON'
]

/** A random JSON value nested up to `depth` levels. */
function randomJson(random: SeededRandom, depth: number): unknown {
	const kind = random.int(depth > 0 ? 8 : 6)
	switch (kind) {
		case 0:
			return null
		case 1:
			return random.chance(0.5)
		case 2:
			return random.pick([0, -1, 1.5, 2 ** 53 + 1, 1e308, 12])
		case 3:
			return random.pick(['', 'x', 'luna.explorer', '=cmd|calc', '\u0000', '😀', 'a'.repeat(300)])
		case 4:
			return random.pick(['name', 'data', '__proto__'])
		case 5:
			return []
		case 6:
			return Array.from({ length: random.int(4) }, () => randomJson(random, depth - 1))
		default: {
			const object: Record<string, unknown> = {}
			for (let index = random.int(4); index > 0; index--) {
				object[random.pick(['name', 'data', 'id', 'allow', 'message', '__proto__', 'x'])] = randomJson(
					random,
					depth - 1
				)
			}
			return object
		}
	}
}

const oversizedBodies = new Map<number, string>()
/** A JSON body of `size` characters (built once per size: the fuzzer sends it often). */
function oversized(size: number): string {
	let body = oversizedBodies.get(size)
	if (!body) {
		body = `{"name":"${'x'.repeat(size)}"}`
		oversizedBodies.set(size, body)
	}
	return body
}

/** A body: valid shapes for the routes, random JSON, malformed JSON, deep nesting, oversized. */
function randomBody(random: SeededRandom, path: string): { body: string; kind: string } {
	const roll = random.int(12)
	if (roll === 0)
		return {
			body: JSON.stringify({ name: random.pick(['fuzz', '../x', '', 'a'.repeat(300), 7]) }),
			kind: 'save'
		}
	if (roll === 1) {
		const records = Array.from({ length: random.int(5) }, () => randomJson(random, 2))
		return {
			body: JSON.stringify(random.chance(0.5) ? { data: records } : { data: { data: records } }),
			kind: 'csv'
		}
	}
	if (roll === 2) return { body: JSON.stringify({ message: 'hello', id: 'x', allow: true }), kind: 'ai' }
	if (roll <= 4) return { body: JSON.stringify(randomJson(random, 4)), kind: 'random json' }
	if (roll <= 6) {
		const broken = [
			'{',
			'{"name":',
			'{"name": "x",}',
			"{'name':'x'}",
			'[1,2',
			'NaN',
			'\uFEFF{"name":"x"}',
			'{"a":"\\x"}',
			'nul',
			'"unterminated',
			'{"a":1}}',
			'\u0000'
		]
		return { body: random.pick(broken), kind: 'malformed json' }
	}
	if (roll === 7) {
		const depth = random.pick([1000, 10_000, 100_000])
		return { body: `${'['.repeat(depth)}${']'.repeat(depth)}`, kind: `nested ${depth}` }
	}
	if (roll === 8) {
		// Over the limit that applies here: 1 MiB, or 10 MiB for the CSV export.
		const size = path === '/api/export/csv' ? 10 * 1024 * 1024 + 10 : 1024 * 1024 + 10
		return { body: oversized(size), kind: `oversized ${size}` }
	}
	if (roll === 9) return { body: '', kind: 'empty' }
	if (roll === 10) return { body: 'name=fuzz&data=1', kind: 'form' }
	return { body: JSON.stringify({ name: 'fuzz' }).repeat(random.int(3) + 1), kind: 'concatenated json' }
}

/** The concrete path of a route with each parameter valid or mutated. */
function fillPath(random: SeededRandom, routePath: string): string {
	return routePath
		.split('/')
		.map((segment) => {
			if (!segment.startsWith(':')) return segment
			const name = segment.slice(1)
			if (random.chance(0.55)) return encodeURIComponent(random.pick(validValues[name] ?? ['x']))
			return random.pick(hostileSegments)
		})
		.join('/')
}

/** A random query string ('' or starting with `?`). */
function randomQuery(random: SeededRandom): string {
	if (random.chance(0.5)) return ''
	const parts: string[] = []
	for (let index = random.int(4) + 1; index > 0; index--) {
		parts.push(`${random.pick(queryKeys)}=${encodeURIComponent(random.pick(queryValues))}`)
	}
	if (random.chance(0.1)) parts.push('%=%', 'count', '&&')
	return `?${parts.join('&')}`
}

/** Random headers: content types, origins, hosts, tokens, odd extras. */
function randomHeaders(random: SeededRandom, hasBody: boolean): Record<string, string> {
	const headers: Record<string, string> = {}
	if (hasBody && random.chance(0.8)) {
		const type = random.pick(contentTypes)
		if (type) headers['content-type'] = type
	}
	if (random.chance(0.15))
		headers.origin = random.pick(['http://127.0.0.1', 'http://evil.example', 'null', 'file://'])
	if (random.chance(0.1))
		headers.host = random.pick(['evil.example', 'localhost', '127.0.0.1:1', '[::1]', ''])
	if (random.chance(0.1)) headers.authorization = random.pick(['Bearer x', 'Basic Zm9vOmJhcg==', 'Bearer '])
	if (random.chance(0.1)) headers['x-forwarded-for'] = '10.0.0.1'
	if (random.chance(0.05))
		headers.accept = random.pick(['text/event-stream', 'text/csv', '*/*', 'application/xml'])
	if (random.chance(0.05)) headers['x-fuzz'] = 'v'.repeat(4000)
	if (random.chance(0.05)) headers.cookie = 'sessionid=forged; csrftoken=forged'
	return headers
}

/** Generates one request against `routes`, on the origin `origin`. */
export function generateRequest(
	random: SeededRandom,
	routes: readonly RouteEntry[],
	origin: string
): FuzzRequest {
	const route = random.pick(routes)
	let path = fillPath(random, route.path)
	// Some paths that match nothing: extra segments, typos, other prefixes.
	if (random.chance(0.08)) path += random.pick(['/extra', '/', '//', '/..', '/%2F', '/x/y/z'])
	if (random.chance(0.03))
		path = random.pick(['/api', '/api/', '/api/unknown', '/api//users', '/API/status', '/api/users'])
	const method = random.chance(0.7) ? route.method : random.pick(methods)
	const hasBody = method !== 'GET' && method !== 'HEAD' && random.chance(0.85)
	const body = hasBody ? randomBody(random, path) : undefined
	return {
		method,
		url: `${origin}${path}${randomQuery(random)}`,
		headers: randomHeaders(random, hasBody),
		body: body?.body,
		bodyKind: body?.kind ?? 'none'
	}
}

/**
 * Bodies every POST route gets in turn: nesting deep enough to exhaust a recursive walker (at the
 * top and inside an exported record), prototype keys, wrong types, malformed and oversized JSON.
 */
export function hostileBodies(): { kind: string; body: string }[] {
	const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`
	const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
	return [
		{ kind: 'nested arrays 100000', body: deep(100_000) },
		{ kind: 'nested objects 100000', body: deepObject(100_000) },
		{ kind: 'record with nested arrays 100000', body: `{"data":[{"a":${deep(100_000)}}]}` },
		{ kind: 'record with nested objects 100000', body: `{"data":{"data":[{"a":${deepObject(100_000)}}]}}` },
		{ kind: 'name nested 100000', body: `{"name":${deep(100_000)}}` },
		{
			kind: 'prototype keys',
			body: '{"__proto__":{"name":"x"},"constructor":{"prototype":1},"data":[{"__proto__":1}]}'
		},
		{ kind: 'wrong types', body: '{"name":12,"data":"x","id":[],"allow":"yes","message":{}}' },
		{ kind: 'malformed', body: '{"name": "x",' },
		{ kind: 'oversized', body: oversized(1024 * 1024 + 10) },
		{ kind: 'empty', body: '' }
	]
}
