/**
 * `interruptedAdvice`, what `smkit watch run` says after Ctrl-C: the command that finishes the
 * watches left, by id, with the --db and --env the run was given when they are not the defaults.
 */
import { expect, test } from 'bun:test'
import { interruptedAdvice } from '../../src/watch/cli-run'

test('the advice gives --db and --env only when not the defaults, as one shell word each', () => {
	expect(
		interruptedAdvice([{ id: 3 }], { demo: true, dbPath: 'demo/smkit.db', envPath: '.env' })
	).toStartWith('Interrupted: run smkit watch run 3 --demo to finish watch 3 (')
	expect(
		interruptedAdvice([{ id: 1 }, { id: 4 }, { id: 5 }], {
			demo: false,
			dbPath: 'my data/w.db',
			envPath: '.env'
		})
	).toStartWith("Interrupted: run smkit watch run 1 4 5 --db 'my data/w.db' to finish watches 1, 4 and 5 (")
})

test('a run stopped after its last watch stored its snapshot has nothing left to name', () => {
	expect(interruptedAdvice([], { demo: true, dbPath: 'demo/smkit.db', envPath: '.env' })).toBe(
		'Interrupted: every watch of this run had stored its snapshot.'
	)
})
