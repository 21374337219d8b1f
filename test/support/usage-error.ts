/** The UsageError a command's option or settings check throws, for tests of its message. */
import { UsageError } from '../../src/cli-error'

/** The UsageError `run` throws; any other error is rethrown, and none is a failure. */
export function usageError(run: () => unknown): UsageError {
	try {
		run()
	} catch (error) {
		if (error instanceof UsageError) return error
		throw error
	}
	throw new Error('expected a UsageError, none was thrown')
}
