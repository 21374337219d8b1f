/**
 * The part of the guest bootstrap (guest.ts) that keeps track of the host calls the code starts:
 * each `ig.*` and `saveFile` call hands the code a `HostCall` promise, which notes when anything
 * looks at it, and so does every promise derived from one. After the run, `unawaited()` lists the
 * calls that failed where nothing looked. Guest code, in the bootstrap's scope: it uses the
 * intrinsics the bootstrap captured first (`PromiseClass`, `promiseThen`, `apply`, `species`).
 */
export const GUEST_HOST_CALLS = String.raw`// Host calls the code started, in order: { label, observed, failed, error }.
const started = []
const MAX_REPORTED = 5

// The label of the call whose 'then' is making a derived promise (read by the constructor), or
// INTERNAL while this code watches a promise for itself (that one is not tracked).
let deriving
const INTERNAL = {}

// A host call's promise. Anything that looks at it calls 'then' (await and Promise.resolve do so
// for a subclass), which marks it observed. A promise derived from it ('then', 'catch', 'finally')
// is one too, tracked under the same label: a failure passed on to it (no rejection handler, a
// callback that throws) is reported unless something looks at that one in turn.
class HostCall extends PromiseClass {
	#record
	constructor(executor, record) {
		super(executor)
		if (record !== undefined) {
			this.#record = record
			return
		}
		if (deriving === INTERNAL) return
		const derived = { label: deriving === undefined ? 'a host call' : deriving, observed: false, failed: false, error: undefined }
		this.#record = derived
		started[started.length] = derived
		// However it comes to reject (its own reject, or a rejected promise it was resolved with).
		const before = deriving
		deriving = INTERNAL
		try {
			apply(promiseThen, this, [undefined, (error) => {
				derived.failed = true
				derived.error = error
			}])
		} finally {
			deriving = before
		}
	}
	static get [species]() { return HostCall }
	then(onFulfilled, onRejected) {
		const record = this.#record
		if (record) record.observed = true
		const before = deriving
		if (record) deriving = record.label
		try {
			return apply(promiseThen, this, [onFulfilled, onRejected])
		} finally {
			deriving = before
		}
	}
}
freeze(HostCall)
freeze(HostCall.prototype)

// Starts a host call (an async function) and returns its outcome as a HostCall, recording it.
function hostCall(label, start) {
	const record = { label: label, observed: false, failed: false, error: undefined }
	let fulfil
	let reject
	const promise = new HostCall((resolve, fail) => { fulfil = resolve; reject = fail }, record)
	apply(promiseThen, start(), [
		(value) => fulfil(value),
		(error) => { record.failed = true; record.error = error; reject(error) }
	])
	started[started.length] = record
	return promise
}

// The calls that failed although nothing awaited them, one line each ('' when none did).
function unawaited() {
	let text = ''
	let count = 0
	for (let index = 0; index < started.length; index++) {
		const record = started[index]
		if (!record.failed || record.observed) continue
		count++
		if (count > MAX_REPORTED) continue
		const line = record.label + ' was not awaited and failed: ' + describe(record.error)
		text += (text ? '\n' : '') + line
	}
	if (count > MAX_REPORTED) text += '\n(and ' + (count - MAX_REPORTED) + ' more calls that were not awaited failed)'
	return text
}
`
