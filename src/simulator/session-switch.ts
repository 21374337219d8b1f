/**
 * What the simulator thinks of the demo session, switchable at run time so tests can watch a client
 * notice an expired session (`POST /__sim/session {"state":"expired"}`, or `simulator.session.set`).
 *
 * - `valid` (start): the demo cookies unlock every session route.
 * - `expired`: session routes answer Instagram's `login_required`; the demo cookies count for nothing
 *   elsewhere either (public routes answer as to an anonymous visitor).
 * - `challenge`: session routes answer `challenge_required` with a challenge URL.
 */
import { fail, loginRequired, type Reply } from './http'

/** The states of the demo session. */
export const SESSION_STATES = ['valid', 'expired', 'challenge'] as const

/** One state of the demo session. */
export type SimulatedSessionState = (typeof SESSION_STATES)[number]

/** The demo session's state of one simulator. */
export class SessionSwitch {
	state: SimulatedSessionState = 'valid'

	/** Sets the state; throws a TypeError for an unknown one. */
	set(state: unknown): void {
		if (!(SESSION_STATES as readonly unknown[]).includes(state))
			throw new TypeError(`state must be one of ${SESSION_STATES.join(', ')}`)
		this.state = state as SimulatedSessionState
	}

	/** Instagram's answer to a session route while the session is not valid. */
	refusal(origin: string): Reply {
		if (this.state === 'challenge')
			return fail(400, 'challenge_required', {
				challenge: {
					url: `${origin}/challenge/`,
					api_path: '/challenge/',
					hide_webview_header: true,
					lock: true,
					logout: false,
					native_flow: true
				}
			})
		return loginRequired()
	}
}
