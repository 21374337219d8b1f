/**
 * QuickJS WebAssembly engines for the sandbox, inside a sandbox worker: a small pool of module
 * instances, one per run, each with its own linear memory capped at the run's memory limit.
 *
 * Why a hard cap on the WebAssembly memory: in this build QuickJS cannot see allocation sizes
 * (`malloc_usable_size` is unavailable), so `JS_SetMemoryLimit` only counts allocations and a guest
 * could grow the heap to the 2 GiB maximum. A `WebAssembly.Memory` with a small `maximum` makes
 * `malloc` fail instead, which QuickJS reports to the guest as "out of memory". A side effect of the
 * same blindness: the cycle collector runs by allocation count, not bytes, so cyclic garbage holding
 * large buffers can use up the limit before it is collected (acyclic data is freed at once).
 *
 * Why the sync build: the bridge uses QuickJS promises, not asyncify, and under Bun the asyncify
 * build ran guest code 40-60 times slower.
 *
 * Why one instance per concurrent run: some hostile programs (source nested 100 000 levels deep)
 * overflow the host's native stack inside the WebAssembly code before QuickJS's own stack check
 * fires. The host catches that `RangeError`, but the instance's C state is then undefined, so it is
 * poisoned and dropped. Keeping runs on separate instances means such a run can never damage another.
 */

import variant from '@jitl/quickjs-singlefile-mjs-release-sync'
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core'

const PAGE_BYTES = 64 * 1024
/** Room for QuickJS's static data, C stack and allocator bookkeeping, on top of the guest's limit. */
const BASELINE_BYTES = 16 * 1024 * 1024
/** Idle instances kept per memory limit; more are dropped for the garbage collector. */
const MAX_IDLE = 2
/** An idle instance whose memory grew past this is dropped, so idle memory stays small. */
const MAX_IDLE_MEMORY_BYTES = 48 * 1024 * 1024

/** One QuickJS WebAssembly instance, used by one run at a time. */
export interface Engine {
	readonly module: QuickJSWASMModule
	readonly memoryLimitBytes: number
	/** Set when the instance's C state can no longer be trusted; it is then never reused. */
	poisoned: boolean
}

const idle = new Map<number, Engine[]>()

function pagesFor(bytes: number): number {
	return Math.ceil(bytes / PAGE_BYTES)
}

const emscriptenModule = {
	// Emscripten prints aborts to stderr; the run reports its own error instead. The loader passes
	// these through although its type does not list them.
	print: () => {},
	printErr: () => {}
} as Record<string, unknown>

/** The compiled WebAssembly module, kept after the first load so later engines skip compiling. */
let compiled: Promise<WebAssembly.Module | undefined> | undefined

/** Uses a module another worker compiled, so this worker's first engine skips compiling too. */
export function useCompiledModule(module: WebAssembly.Module): void {
	compiled ??= Promise.resolve(module)
}

/** The compiled module once the first engine has loaded (undefined before, or if capturing failed). */
export async function sharedCompiledModule(): Promise<WebAssembly.Module | undefined> {
	return compiled
}

/**
 * The single-file variant compiles its embedded binary on every load (~100 ms, and the new code
 * starts cold). To instantiate later engines from the same compiled module, the first load watches
 * `WebAssembly.instantiate` and keeps the module whose imports include the memory passed in; the
 * original function is restored as soon as that load ends.
 */
async function loadCapturingModule(memory: WebAssembly.Memory) {
	const original = WebAssembly.instantiate
	let captured: WebAssembly.Module | undefined
	const watching = async (source: unknown, imports?: WebAssembly.Imports) => {
		const result = await (original as (...args: unknown[]) => Promise<unknown>).call(
			WebAssembly,
			source,
			imports
		)
		const compiledModule = (result as { module?: unknown }).module
		const ours = Object.values(imports ?? {}).some((names) => Object.values(names ?? {}).includes(memory))
		if (ours && compiledModule instanceof WebAssembly.Module) captured = compiledModule
		return result
	}
	WebAssembly.instantiate = watching as typeof WebAssembly.instantiate
	try {
		const module = await newQuickJSWASMModuleFromVariant(
			newVariant(variant, { wasmMemory: memory, emscriptenModule })
		)
		return { module, compiledModule: captured }
	} finally {
		if (WebAssembly.instantiate === (watching as unknown)) WebAssembly.instantiate = original
	}
}

async function loadEngine(memoryLimitBytes: number): Promise<Engine> {
	const memory = new WebAssembly.Memory({
		initial: pagesFor(BASELINE_BYTES),
		maximum: pagesFor(BASELINE_BYTES + memoryLimitBytes)
	})
	if (!compiled) {
		let settle: (module: WebAssembly.Module | undefined) => void = () => {}
		compiled = new Promise((resolve) => {
			settle = resolve
		})
		try {
			const { module, compiledModule } = await loadCapturingModule(memory)
			settle(compiledModule)
			return { module, memoryLimitBytes, poisoned: false }
		} catch (error) {
			settle(undefined)
			compiled = undefined
			throw error
		}
	}
	const wasmModule = await compiled
	const module = await newQuickJSWASMModuleFromVariant(
		newVariant(
			variant,
			wasmModule
				? { wasmMemory: memory, wasmModule, emscriptenModule }
				: { wasmMemory: memory, emscriptenModule }
		)
	)
	return { module, memoryLimitBytes, poisoned: false }
}

/** An idle engine for this memory limit, or a newly loaded one (about 25-70 ms). */
export async function acquireEngine(memoryLimitBytes: number): Promise<Engine> {
	const engine = idle.get(memoryLimitBytes)?.pop()
	return engine ?? loadEngine(memoryLimitBytes)
}

/**
 * Returns an engine after a run; poisoned or grown engines are dropped instead of reused. Returns
 * whether it was kept (a dropped one leaves a large WebAssembly memory for the garbage collector).
 */
export function releaseEngine(engine: Engine): boolean {
	if (engine.poisoned) return false
	let grown = true
	try {
		grown = engine.module.getWasmMemory().buffer.byteLength > MAX_IDLE_MEMORY_BYTES
	} catch {
		// No memory to inspect means an instance we cannot vouch for.
	}
	if (grown) return false
	const list = idle.get(engine.memoryLimitBytes) ?? []
	if (list.length >= MAX_IDLE) return false
	list.push(engine)
	idle.set(engine.memoryLimitBytes, list)
	return true
}
