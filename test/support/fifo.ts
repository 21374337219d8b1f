/**
 * A named pipe the test reads at its own pace: a writer into it (a process writing its file)
 * stops once the pipe's buffer is full and the test has not read on, as on a very slow disk, so a
 * test can stop that process at the moment it writes.
 */
import { closeSync, constants, openSync, readSync } from 'node:fs'

/** The read end of a FIFO, opened without waiting for a writer. */
export interface FifoReader {
	/** Waits until at least `bytes` have arrived; returns what arrived. */
	take(bytes: number): Promise<Buffer>
	/** Reads until the writer closes its end; returns what arrived since the last read. */
	drain(): Promise<Buffer>
	close(): void
}

/** Makes a FIFO at `path` and opens its read end. */
export function openFifo(path: string): FifoReader {
	const made = Bun.spawnSync(['mkfifo', path])
	if (made.exitCode !== 0) throw new Error(`mkfifo ${path}: ${made.stderr.toString()}`)
	// Non-blocking: the open does not wait for a writer, and a read with nothing there says EAGAIN.
	const file = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
	const buffer = Buffer.alloc(64 * 1024)
	let writerSeen = false
	/** One read: bytes, [] (nothing yet) or null (the writer closed its end). */
	const readOnce = (most: number): Buffer | null => {
		try {
			const count = readSync(file, buffer, 0, Math.min(most, buffer.length), null)
			// 0 before any writer opened the pipe means nothing yet; after, the writer is gone.
			if (count === 0) return writerSeen ? null : Buffer.alloc(0)
			writerSeen = true
			return Buffer.from(buffer.subarray(0, count))
		} catch (error) {
			if ((error as { code?: string }).code !== 'EAGAIN') throw error
			writerSeen = true
			return Buffer.alloc(0)
		}
	}
	return {
		async take(bytes) {
			const parts: Buffer[] = []
			let size = 0
			while (size < bytes) {
				const part = readOnce(bytes - size)
				if (part === null) break
				if (part.length === 0) await Bun.sleep(5)
				parts.push(part)
				size += part.length
			}
			return Buffer.concat(parts)
		},
		async drain() {
			const parts: Buffer[] = []
			for (let part = readOnce(buffer.length); part !== null; part = readOnce(buffer.length)) {
				if (part.length === 0) await Bun.sleep(5)
				parts.push(part)
			}
			return Buffer.concat(parts)
		},
		close: () => closeSync(file)
	}
}
