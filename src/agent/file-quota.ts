/**
 * How much generated code may write with `saveFile`: at most 20 files and 10 MB per run, and
 * 100 MB per conversation (until it is reset). A write is counted when it is planned, before the
 * person is asked, and given back when it is denied or fails, so a run cannot fill the disk (one
 * run wrote 1.9 GB in 30 s before these limits).
 */

/** Limits of `saveFile` (bytes are UTF-8 bytes of the content). */
export interface FileQuotaLimits {
	filesPerRun: number
	bytesPerRun: number
	bytesPerConversation: number
}

/** The limits in force. */
export const fileQuotaLimits: FileQuotaLimits = {
	filesPerRun: 20,
	bytesPerRun: 10 * 1024 * 1024,
	bytesPerConversation: 100 * 1024 * 1024
}

/** A write that would go over a limit. */
export class FileQuotaError extends Error {
	override name = 'FileQuotaError'
}

function megabytes(bytes: number): string {
	return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`
}

/** The bytes written in one conversation; each run takes its own `RunFileQuota` from it. */
export class ConversationFileQuota {
	/** Bytes counted so far (reserved or written). */
	used = 0

	constructor(readonly limits: FileQuotaLimits = fileQuotaLimits) {}

	/** The quota of a new run. */
	startRun(): RunFileQuota {
		return new RunFileQuota(this)
	}

	/** Forgets what was written (a new conversation). */
	reset(): void {
		this.used = 0
	}
}

/** Files and bytes of one run. */
export class RunFileQuota {
	files = 0
	bytes = 0

	constructor(private readonly conversation: ConversationFileQuota) {}

	/**
	 * Counts a write of `size` bytes named `name`, or throws a `FileQuotaError` saying which limit
	 * it would pass. Returns the function that gives it back (the write was denied or failed).
	 */
	reserve(name: string, size: number): () => void {
		const { limits } = this.conversation
		if (this.files + 1 > limits.filesPerRun) {
			throw new FileQuotaError(`${name} not written: a run may write at most ${limits.filesPerRun} files`)
		}
		if (this.bytes + size > limits.bytesPerRun) {
			throw new FileQuotaError(
				`${name} not written: a run may write at most ${megabytes(limits.bytesPerRun)} (${megabytes(this.bytes)} written)`
			)
		}
		if (this.conversation.used + size > limits.bytesPerConversation) {
			throw new FileQuotaError(
				`${name} not written: a conversation may write at most ${megabytes(limits.bytesPerConversation)}`
			)
		}
		this.files++
		this.bytes += size
		this.conversation.used += size
		let released = false
		return () => {
			if (released) return
			released = true
			this.files--
			this.bytes -= size
			this.conversation.used -= size
		}
	}
}
