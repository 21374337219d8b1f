/**
 * The signals a command that collects (`smkit collect`, `smkit jobs export`, `smkit watch run`, and
 * `smkit analytics` and `compare`) stops on the way Ctrl-C stops it: between two writes, its job paused, its summary printed with how
 * to continue. Each ends the command with the shell's convention for a process a signal ended,
 * 128 plus the signal's number: 130 for SIGINT (Ctrl-C), 143 for SIGTERM (kill, a service manager),
 * 129 for SIGHUP (the terminal closed, an SSH session dropped).
 *
 *   const stops = onStopSignals(() => controller.abort())
 *   try { ... } finally { stops.off() }
 *   if (stopped) process.exitCode = stops.exitCode
 */
import { InterruptedError } from '../cli-error'

/** The exit code after each signal: 128 + its number. */
export const STOP_SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const

export type StopSignal = keyof typeof STOP_SIGNAL_EXIT_CODES

const SIGNALS = Object.keys(STOP_SIGNAL_EXIT_CODES) as StopSignal[]

/** Listening for the stop signals: which came first, and the exit code it asks for. */
export interface StopSignals {
	/** The first stop signal received, or undefined. */
	readonly received: StopSignal | undefined
	/** 128 + the first signal's number; 130 (Ctrl-C's) when none came. */
	readonly exitCode: number
	/** Stops listening. */
	off(): void
}

/** Calls `stop` on each stop signal (once per signal: a second of the same kind ends the process). */
export function onStopSignals(stop: (signal: StopSignal) => void): StopSignals {
	let received: StopSignal | undefined
	const handlers = SIGNALS.map((signal) => {
		const handler = () => {
			received ??= signal
			// The terminal is gone: what is written to it is lost, and a failed write must not end the
			// command before it has paused its job.
			if (signal === 'SIGHUP') process.stderr.on('error', () => {})
			stop(signal)
		}
		process.once(signal, handler)
		return [signal, handler] as const
	})
	return {
		get received() {
			return received
		},
		get exitCode() {
			return STOP_SIGNAL_EXIT_CODES[received ?? 'SIGINT']
		},
		off() {
			for (const [signal, handler] of handlers) process.off(signal, handler)
		}
	}
}

/** The InterruptedError a command stopped by a signal ends with (`--json`), with that signal's exit code. */
export function interruptedBy(stops: StopSignals): InterruptedError {
	return new InterruptedError(stops.exitCode)
}
