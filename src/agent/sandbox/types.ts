/** The sandbox's public contract (notes/common.md, "Sandbox") and its defaults. */

/** What a run may use and how far it may go. */
export interface SandboxOptions {
	/** Client methods the code may call, as `group.method` paths, e.g. `users.getByUsername`. */
	methods: readonly string[]
	/**
	 * Host side of `ig.<group>.<method>(...args)`. Receives the arguments parsed from the guest's JSON;
	 * its result is sent back as JSON. May throw: the guest sees a catchable `Error` with the same
	 * `message`, `name` and `kind`. Permission checks belong here.
	 */
	callMethod(path: string, args: unknown[]): Promise<unknown>
	/** Writes a file for `saveFile(name, content)`; without it the guest has no `saveFile`. */
	saveFile?(name: string, content: string): Promise<{ name: string; file: string; size: number }>
	/** Wall-clock limit for the whole run in ms, awaited calls included (default 30000). */
	timeoutMs?: number
	/** Guest heap limit in bytes (default 64 MiB). */
	memoryLimitBytes?: number
	/** Captured console output is cut at this many characters (default 20000). */
	maxOutputChars?: number
	/** Aborting ends the run at once with an error. */
	signal?: AbortSignal
	/** Host calls (`ig.*` and `saveFile`) allowed per run (default 200); later ones throw in the guest. */
	maxCalls?: number
	/** Host calls running at once (default 4); more wait in a queue. */
	maxConcurrentCalls?: number
}

/** What a run produced. Output printed before an error is kept. */
export interface SandboxResult {
	/** The code's async body finished without throwing. */
	ok: boolean
	/** Captured `console.*` lines, each ending in a newline. */
	output: string
	/** The body's return value as JSON data; values JSON cannot hold are described as strings. */
	returnValue?: unknown
	/** Why the run failed: uncaught error, timeout, abort, memory, stack. */
	error?: string
	durationMs: number
	/** Output was cut at `maxOutputChars`. */
	outputTruncated: boolean
}

/** Defaults (docs/architecture.md, "The agent"). */
export const sandboxDefaults = {
	timeoutMs: 30_000,
	memoryLimitBytes: 64 * 1024 * 1024,
	maxOutputChars: 20_000,
	maxCalls: 200,
	maxConcurrentCalls: 4,
	/**
	 * QuickJS stack limit. Measured under Bun: above ~256 KiB some recursion shapes (JSON of deeply
	 * nested data, getters, toString) overflow the host's native stack before QuickJS notices; 128 KiB
	 * gives a clean RangeError for all of them and still allows about 680 plain nested calls.
	 */
	maxStackBytes: 128 * 1024,
	/** A bridge result larger than this (JSON characters) is refused rather than copied into the guest. */
	maxResultChars: 16 * 1024 * 1024
} as const
