/**
 * The envelope as the playground's extensions use it (see the README, "Extending the playground"):
 * the shared schemas and builders of src/server/envelope.ts and the not-logged-in message of the
 * shared error mapping (src/server/errors.ts).
 */
export {
	Envelope,
	type ErrorCode,
	type FailureBody,
	FailureEnvelope,
	fail,
	HttpError,
	httpStatusOf,
	ok,
	type SuccessBody,
	SuccessEnvelope,
	SuccessEnvelopeOf
} from '../server/envelope'
export { NOT_LOGGED_IN_MESSAGE } from '../server/errors'
