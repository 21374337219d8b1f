/**
 * JavaScript that runs inside QuickJS before the user's code. It receives the host functions as
 * arguments (they never appear on `globalThis`), keeps them in closures, and builds the guest API:
 * a frozen `ig` with one async function per allowed method, `console`, and `saveFile` when the host
 * provides it. Everything crossing to the host is a string: arguments are JSON text, replies are
 * `u` (undefined), `v<json>` (a value) or `e<json>` (an error `{ name, message, kind? }`).
 *
 * It also returns `run(fn)`, which awaits the user's async body and answers with one string:
 * `u`, `v<json>` for the return value, or `e<text>` describing what was thrown. Describing happens
 * here, in the guest, so no guest object ever reaches the host. The intrinsics it relies on are
 * captured first, so code that replaces `JSON.stringify` or `String` cannot break the reporting.
 *
 * Every `ig.*` and `saveFile` call hands the code a `HostCall` promise, which notes when anything
 * looks at it (`await`, `then`, `catch`, `Promise.all` all go through `then` for a subclass). The
 * session waits for every call the code started, awaited or not, and then asks `unawaited()` for
 * the calls that failed where the code never looked: a `saveFile` without `await` is neither lost
 * nor silently failed.
 */

import { GUEST_HOST_CALLS } from './guest-host-calls'

/** File name the user's code is compiled under; stack lines from it are kept in error reports. */
export const CODE_FILE_NAME = 'code.js'

const USER_CODE_HEADER = '(async function () {'

/** Wraps the user's async function body; the header shares line 1 so line numbers match. */
export function wrapUserCode(code: string): string {
	return `${USER_CODE_HEADER}${code}\n})`
}

/** Evaluates to `function (print, bridge, save, settingsJson) -> { run, describe, unawaited }`. */
export const GUEST_BOOTSTRAP = String.raw`(function (print, bridge, save, settingsJson) {
'use strict'
const stringify = JSON.stringify
const parse = JSON.parse
const freeze = Object.freeze
const create = Object.create
const defineProperty = Object.defineProperty
const assign = Object.assign
const isArray = Array.isArray
const asyncIterator = Symbol.asyncIterator
const species = Symbol.species
const PromiseClass = Promise
const promiseThen = Promise.prototype.then
const apply = Reflect.apply
const ErrorClass = Error
const TypeErrorClass = TypeError
const StringClass = String
const global = globalThis
const settings = parse(settingsJson)

function attempt(read, fallback) {
	try { return read() } catch (error) { return fallback }
}

function cycleSafeReplacer() {
	const ancestors = []
	return function (key, item) {
		if (typeof item === 'bigint') return StringClass(item) + 'n'
		if (typeof item === 'function') return '[Function ' + (attempt(() => item.name, '') || 'anonymous') + ']'
		if (typeof item === 'symbol') return attempt(() => item.toString(), '[Symbol]')
		if (item === null || typeof item !== 'object') return item
		while (ancestors.length > 0 && ancestors[ancestors.length - 1] !== this) ancestors.length--
		for (let index = 0; index < ancestors.length; index++) if (ancestors[index] === item) return '[Circular]'
		ancestors[ancestors.length] = item
		return item
	}
}

// JSON text of a value, or undefined when JSON has nothing for it. Cycles, big integers and
// functions nested inside data are written as descriptive strings instead of failing.
function toJson(value, indent) {
	try {
		return stringify(value, null, indent)
	} catch (error) {
		return attempt(() => stringify(value, cycleSafeReplacer(), indent), undefined)
	}
}

function errorText(error) {
	const name = attempt(() => StringClass(error.name), 'Error') || 'Error'
	const message = attempt(() => StringClass(error.message), '')
	let text = message ? name + ': ' + message : name
	const kind = attempt(() => error.kind, undefined)
	if (typeof kind === 'string' && kind) text += ' (kind: ' + kind + ')'
	return text
}

function isError(value) {
	return attempt(() => value instanceof ErrorClass, false)
}

// One value as console.log shows it: strings as they are, objects as JSON.
function show(value) {
	switch (typeof value) {
		case 'string': return value
		case 'undefined': return 'undefined'
		case 'bigint': return StringClass(value) + 'n'
		case 'symbol': return attempt(() => value.toString(), '[Symbol]')
		case 'function': return '[Function ' + (attempt(() => value.name, '') || 'anonymous') + ']'
		case 'object':
			if (value === null) return 'null'
			if (isError(value)) return errorText(value)
			{
				const json = toJson(value)
				return json === undefined ? '[object]' : json
			}
		default: return StringClass(value)
	}
}

// What was thrown, for the error report; stack lines from the user's code give line numbers.
function describe(thrown) {
	if (isError(thrown)) {
		let text = errorText(thrown)
		const stack = attempt(() => thrown.stack, '')
		if (typeof stack === 'string') {
			const lines = stack.split('\n')
			let kept = 0
			let previous = ''
			for (let index = 0; index < lines.length && kept < 3; index++) {
				const line = lines[index]
				if (line.indexOf('${CODE_FILE_NAME}:') < 0 || line === previous) continue
				// Line 1 shares the wrapper's header, so its columns are shifted by the header's length.
				text += '\n' + line.replace(/${CODE_FILE_NAME}:1:(\d+)/, (match, column) => '${CODE_FILE_NAME}:1:' + (column - ${USER_CODE_HEADER.length}))
				previous = line
				kept++
			}
		}
		return text
	}
	if (thrown === null || thrown === undefined) return 'The code threw ' + thrown + ' (not an Error)'
	const type = typeof thrown
	const article = type === 'object' || type === 'undefined' ? 'an ' : 'a '
	return 'The code threw ' + show(thrown) + ' (' + article + type + ', not an Error)'
}

let outputFull = false
function log() {
	if (outputFull) return
	let text = ''
	for (let index = 0; index < arguments.length; index++) {
		if (index > 0) text += ' '
		text += show(arguments[index])
	}
	// Lines longer than the whole output cap would be cut by the host anyway; do not copy them out.
	if (text.length > settings.maxOutputChars) text = text.slice(0, settings.maxOutputChars + 1)
	outputFull = print(text) === true
}
global.console = { log: log, info: log, warn: log, error: log, debug: log, dir: log, table: log }

${GUEST_HOST_CALLS}
function settle(reply) {
	const tag = reply.charAt(0)
	if (tag === 'u') return undefined
	if (tag === 'v') return parse(reply.slice(1))
	const info = parse(reply.slice(1))
	const error = new ErrorClass(info.message)
	if (info.name) error.name = info.name
	if (info.kind) error.kind = info.kind
	throw error
}

async function call(path, args) {
	let end = args.length
	while (end > 0 && args[end - 1] === undefined) end--
	const list = []
	for (let index = 0; index < end; index++) list[index] = args[index]
	let text
	try {
		text = stringify(list)
	} catch (error) {
		throw new TypeErrorClass('ig.' + path + ': arguments must be JSON data (' + errorText(error) + ')')
	}
	return iterablePage(path, list, settle(await bridge(path, text)))
}

// A list method's page, as the client's own pages are: also async-iterable over its records and
// then every record after it, asking the same method for each following page (one call each).
function iterablePage(path, args, page) {
	if (page === null || typeof page !== 'object' || !isArray(page.items) || !('next_cursor' in page)) return page
	const last = args[args.length - 1]
	const hasOptions = last !== null && typeof last === 'object' && !isArray(last)
	const leading = hasOptions ? args.slice(0, -1) : args
	const options = hasOptions ? last : {}
	defineProperty(page, asyncIterator, {
		enumerable: false,
		value: async function* records() {
			yield* page.items
			const seen = []
			let cursor = page.next_cursor
			// A cursor seen before would bring its page back again: the list ends there, as in the client.
			while (typeof cursor === 'string' && cursor !== '' && seen.indexOf(cursor) < 0) {
				seen[seen.length] = cursor
				const next = await call(path, leading.concat([assign({}, options, { cursor: cursor })]))
				yield* next.items
				cursor = next.next_cursor
			}
		}
	})
	return page
}

const ig = create(null)
const methods = settings.methods
for (let index = 0; index < methods.length; index++) {
	const path = methods[index]
	const dot = path.indexOf('.')
	const group = path.slice(0, dot)
	const name = path.slice(dot + 1)
	if (!ig[group]) ig[group] = create(null)
	const holder = { [name](...args) { return hostCall('ig.' + path, () => call(path, args)) } }
	ig[group][name] = freeze(holder[name])
}
for (const group in ig) freeze(ig[group])
defineProperty(global, 'ig', { value: freeze(ig), enumerable: true })

if (save) {
	const write = async (name, content) => {
		if (typeof name !== 'string' || name === '') {
			throw new TypeErrorClass('saveFile(name, content): name must be a non-empty string')
		}
		const text = typeof content === 'string' ? content : toJson(content, 2)
		if (typeof text !== 'string') {
			throw new TypeErrorClass('saveFile(name, content): content must be a string or JSON data')
		}
		return settle(await save(name, text))
	}
	const holder = {
		saveFile(name, content) {
			const label = typeof name === 'string' ? 'saveFile(' + stringify(name.slice(0, 80)) + ')' : 'saveFile'
			return hostCall(label, () => write(name, content))
		}
	}
	defineProperty(global, 'saveFile', { value: freeze(holder.saveFile), enumerable: true })
}

async function run(body) {
	let value
	try {
		value = await body()
	} catch (thrown) {
		return 'e' + describe(thrown)
	}
	if (value === undefined) return 'u'
	const type = typeof value
	if (type === 'function' || type === 'symbol' || type === 'bigint') return 'v' + stringify(show(value))
	const json = toJson(value)
	return 'v' + (json === undefined ? stringify('[value that JSON cannot hold]') : json)
}

return { run: run, describe: describe, unawaited: unawaited }
})`
