/** Files imported `with { type: 'file' }` resolve to a path Bun.file can open (also inside the binary). */
declare module '*/vendor/scalar-api-reference/standalone.js' {
	const path: string
	export default path
}

declare module '*.ico' {
	const path: string
	export default path
}
