/**
 * Raw HTTP over TCP for tests that send what `fetch` refuses to: malformed Host headers, half-sent
 * requests, connections left open. Loopback only.
 */
import { connect, type Socket } from 'node:net'

/** A parsed raw response. */
export interface RawResponse {
	status: number
	headers: string
	body: string
}

/** Sends `text` as is on a new connection and reads until the server closes it. */
export function rawRequest(port: number, text: string): Promise<RawResponse> {
	return new Promise((resolve, reject) => {
		const socket = connect(port, '127.0.0.1')
		let received = ''
		socket.setEncoding('utf8')
		socket.on('data', (chunk) => {
			received += chunk
		})
		socket.on('error', reject)
		socket.on('close', () => {
			const split = received.indexOf('\r\n\r\n')
			const head = split < 0 ? received : received.slice(0, split)
			resolve({
				status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
				headers: head,
				body: split < 0 ? '' : received.slice(split + 4)
			})
		})
		socket.write(text)
	})
}

/** A GET of `path` with the given Host header, asking the server to close afterwards. */
export function requestWithHost(port: number, path: string, host: string): Promise<RawResponse> {
	return rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)
}

/** An open connection that has sent `text` and waits; `closed` resolves when the server closes it. */
export interface HeldConnection {
	socket: Socket
	closed: Promise<void>
}

/** Opens a connection, sends `text` and keeps it open (until the server closes it or `destroy`). */
export function holdConnection(port: number, text: string): Promise<HeldConnection> {
	return new Promise((resolve, reject) => {
		const socket = connect(port, '127.0.0.1', () => {
			socket.write(text)
			resolve({ socket, closed })
		})
		const closed = new Promise<void>((done) => socket.on('close', () => done()))
		socket.on('error', () => {})
		socket.once('error', reject)
		socket.on('data', () => {})
	})
}
