import { describe, expect, test } from 'bun:test'
import { JOB_KINDS } from '../../src/jobs/types'
import { jobsTools } from '../../src/mcp/jobs-tools'
import { checkInput } from '../../src/mcp/tool'

// The input schemas are read without running a tool: the manager is never opened.
const jobsStart = jobsTools(() => {
	throw new Error('the manager is not used to check arguments')
}).find((tool) => tool.name === 'jobs_start')
if (!jobsStart) throw new Error('jobs_start is missing')

describe('tool arguments are checked with messages naming the field and what it takes', () => {
	test('a value outside a set of choices lists the choices', () => {
		expect(checkInput(jobsStart.inputSchema, { kind: 'friends', target: 'luna.explorer' })).toBe(
			`Invalid argument 'kind': expected one of ${JOB_KINDS.join(', ')}`
		)
		expect(checkInput(jobsStart.inputSchema, { kind: 7, target: 'luna.explorer' })).toBe(
			`Invalid argument 'kind': expected one of ${JOB_KINDS.join(', ')}`
		)
	})

	test('other problems keep the validator wording, and good arguments pass', () => {
		expect(checkInput(jobsStart.inputSchema, { kind: 'followers', target: 'x', limit: 0 })).toBe(
			"Invalid argument 'limit': Expected integer to be greater or equal to 1"
		)
		expect(checkInput(jobsStart.inputSchema, { kind: 'followers' })).toBe(
			"Invalid argument 'target': Expected required property"
		)
		expect(checkInput(jobsStart.inputSchema, { kind: 'followers', target: 'x', limit: 5 })).toBeUndefined()
	})
})
