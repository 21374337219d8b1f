/**
 * Demo or real: jobs and watches say which Instagram they read (column `demo`: 1 demo mode's
 * simulator, 0 Instagram, null not known yet), and a process runs only those of its own, so no
 * collection or watch history mixes simulated data with real data. A process that only reads,
 * lists or deletes has no world (`undefined`) and sees them all.
 *
 *   const world = worldValue(options.demo)                       // 1, 0 or null
 *   db.query(`SELECT * FROM jobs WHERE ${sameWorld('demo')}`).all(world)
 *   const refusal = otherWorld({ noun: 'Job', id, demo: job.demo }, options.demo)
 */

/** The value bound to a `sameWorld` condition: 1, 0, or null for a process that has no world. */
export function worldValue(demo: boolean | undefined): number | null {
	return demo === undefined ? null : Number(demo)
}

/** SQL true for a row of the process's world or of none yet; one parameter, `worldValue(demo)`. */
export function sameWorld(column: string): string {
	return `(${column} IS NULL OR ${column} = COALESCE(?, ${column}))`
}

/** A stored `demo` column as the API shows it. */
export const worldOf = (value: number | null): boolean | null => (value === null ? null : value === 1)

/**
 * Why a process of world `demo` may not run this job or watch (it reads the other Instagram), with
 * what to do; undefined when it may.
 */
export function otherWorld(
	item: { noun: 'Job' | 'Watch'; id: number; demo: boolean | null },
	demo: boolean | undefined
): string | undefined {
	if (demo === undefined || item.demo === null || item.demo === demo) return undefined
	const job = item.noun === 'Job'
	const reads = job ? 'collects from' : 'watches'
	const mixes = job
		? 'a job never mixes demo and real records'
		: 'a watch never mixes demo and real snapshots'
	const where = item.demo ? "demo mode's simulated Instagram" : 'Instagram'
	const how = `${job ? 'continue' : 'run'} it ${item.demo ? 'with' : 'without'} --demo`
	return `${item.noun} ${item.id} ${reads} ${where}: ${how} (${mixes})`
}
