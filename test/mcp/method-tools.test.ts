/**
 * The MCP tools generated from the method registry: one per method, names every client accepts,
 * schemas that compile under strict JSON Schema 2020-12, an output schema for every method (so
 * every result carries structuredContent), and arguments mapped back in the method's order.
 */
import { describe, expect, it } from 'bun:test'
import type { TSchema } from '@sinclair/typebox'
import Ajv2020 from 'ajv/dist/2020'
import { methodRegistry } from '../../src/client/registry'
import { MAX_TOOL_COUNT, methodTool, methodTools, plainSchema } from '../../src/mcp/method-tools'

const ajv = new Ajv2020({ strict: true, allErrors: true })

describe('MCP tools from the method registry', () => {
	const tools = methodTools({ includeWrites: true })

	it('gives every registry method one tool with a name MCP clients accept', () => {
		expect(tools).toHaveLength(methodRegistry.length)
		const names = tools.map((tool) => tool.name)
		expect(new Set(names).size).toBe(names.length)
		for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9_]{0,63}$/)
		expect(names).toContain('users_get_by_username')
		expect(names).toContain('media_get_info_v2')
	})

	it('leaves the write methods out when asked to', () => {
		const reads = methodTools({ includeWrites: false })
		expect(reads.map((tool) => tool.method.access)).not.toContain('write')
		expect(reads).toHaveLength(methodRegistry.filter((method) => method.access === 'read').length)
	})

	it('has input and output schemas that compile (2020-12, strict) for every method', () => {
		for (const tool of tools) {
			expect(() => ajv.compile(plainSchema(tool.inputSchema))).not.toThrow()
			expect(tool.outputSchema?.type).toBe('object')
			expect(() => ajv.compile(plainSchema(tool.outputSchema as TSchema))).not.toThrow()
			expect(tool.description).toContain(tool.method.description)
		}
	})

	it('validates arguments and maps them back in the method order', () => {
		const followers = methodTool(methodRegistry.find((method) => method.path === 'friendships.getFollowers')!)
		const validate = ajv.compile(plainSchema(followers.inputSchema))
		expect(validate({ userPk: '42', count: 5, cursor: 'abc' })).toBe(true)
		expect(validate({ userPk: '42', count: MAX_TOOL_COUNT + 1 })).toBe(false)
		expect(validate({ userPk: '42', count: 0 })).toBe(false)
		expect(validate({ count: 5 })).toBe(false)
		expect(validate({ userPk: '42', other: 1 })).toBe(false)
		expect(followers.toArguments({ userPk: '42', count: 5, cursor: 'abc' })).toEqual([
			'42',
			{ count: 5, cursor: 'abc' }
		])
		expect(followers.toArguments({ userPk: '42' })).toEqual(['42', {}])
		const comment = methodTool(methodRegistry.find((method) => method.path === 'media.comment')!)
		expect(comment.toArguments({ mediaPk: '1', text: 'hi' })).toEqual(['1', 'hi'])
	})
})
