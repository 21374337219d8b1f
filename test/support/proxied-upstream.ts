/**
 * For tests of commands that reach Instagram through a proxy: the compiled binary, a simulator, a
 * forwarding proxy on loopback that asks for credentials (`proxyuser` and the given password), and a
 * scratch folder holding two environment files with the demo session pointed at the simulator:
 * `direct.env`, and `proxied.env`, which also names the proxy as HTTP_PROXY.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEMO_CREDENTIALS } from '../../src/simulator/credentials'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import { compiledBinary } from './binary'
import { startTestProxy, type TestProxy } from './proxy'

/** What `startProxiedUpstream` starts; `stop` ends it all and removes the folder. */
export interface ProxiedUpstream {
	binary: string
	simulator: Simulator
	proxy: TestProxy
	folder: string
	stop(): Promise<void>
}

/** Starts it all; `prefix` names the scratch folder, `password` is the proxy's (tests check it never shows). */
export async function startProxiedUpstream(prefix: string, password: string): Promise<ProxiedUpstream> {
	const [binary, simulator] = await Promise.all([compiledBinary(), startSimulator()])
	const proxy = startTestProxy({ credentials: { user: 'proxyuser', password } })
	const folder = mkdtempSync(join(tmpdir(), prefix))
	const session = [
		`SESSION_ID=${DEMO_CREDENTIALS.sessionId}`,
		`CSRF_TOKEN=${DEMO_CREDENTIALS.csrfToken}`,
		`DS_USER_ID=${DEMO_CREDENTIALS.dsUserId}`,
		`SMKIT_UPSTREAM_URL=${simulator.url}`
	]
	writeFileSync(join(folder, 'direct.env'), `${session.join('\n')}\n`, { mode: 0o600 })
	writeFileSync(join(folder, 'proxied.env'), `${[...session, `HTTP_PROXY=${proxy.url}`].join('\n')}\n`, {
		mode: 0o600
	})
	return {
		binary,
		simulator,
		proxy,
		folder,
		async stop() {
			await proxy.stop()
			await simulator.stop()
			rmSync(folder, { recursive: true, force: true })
		}
	}
}
